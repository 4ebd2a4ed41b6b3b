import { validationError, conflict } from '@pss/kernel';
import { ORGANIZATION_WIDE } from '../email-channels/email-channel-form';
import { translator } from '../i18n/catalogue';
import { changesOf, creationInput, eventField, refusedFields, webhookFormOf, webhookFormValues } from './webhook-form';

describe('the webhook form', () => {
  const posted = { url: ' https://hooks.example.com/pss ', name: '', store_id: ORGANIZATION_WIDE, format: 'json', [eventField('alert.created')]: 'on', [eventField('test')]: 'on', min_severity: 'critical' };

  it('sends POST /webhooks the ticked events, leaving the name to the service when blank and the scope null organization-wide', () => {
    const values = webhookFormValues(posted);
    expect(values).toEqual({ url: 'https://hooks.example.com/pss', name: '', store_id: ORGANIZATION_WIDE, format: 'json', events: ['alert.created', 'test'], min_severity: 'critical', active: false });
    expect(creationInput(values)).toEqual({ url: 'https://hooks.example.com/pss', store_id: undefined, format: 'json', events: ['alert.created', 'test'], min_severity: 'critical', active: false });
    expect(creationInput({ ...values, name: 'Ops', store_id: 'store-1', active: true })).toMatchObject({ name: 'Ops', store_id: 'store-1', active: true });
  });

  it('sends no ticked event as every event (null), on creation and on a change', () => {
    const values = webhookFormValues({ url: 'https://hooks.example.com', name: 'Ops', active: 'on' });
    expect(creationInput(values).events).toBeNull();
    expect(changesOf(values)).toEqual({ url: 'https://hooks.example.com', name: 'Ops', events: null, min_severity: '', active: true });
  });

  it('shows a webhook as the form has it', () => {
    const values = webhookFormOf({ id: 'w', store_id: null, type: 'webhook', name: 'Ops', url: 'https://h.example', format: 'json', has_secret: true, events: null, min_severity: 'high', active: true, last_used_at: null, created_at: '', updated_at: '' } as never);
    expect(values).toEqual({ url: 'https://h.example', name: 'Ops', store_id: ORGANIZATION_WIDE, format: 'json', events: [], min_severity: 'high', active: true });
  });

  it("marks each field the command refused in the person's language (the command's words for an unknown refusal), and nothing for a refusal about no field", () => {
    const refused = validationError([
      { field: 'url', message: 'url must be an https URL of at most 2048 characters' },
      { field: 'name', message: 'name should not be empty' },
      { field: 'name', message: 'another' },
      { field: 'org_id', message: 'not on the form' },
    ]);
    expect(refusedFields(translator('pt-BR'), refused)).toEqual({ url: 'deve ser um endereço https de no máximo 2048 caracteres.', name: 'não pode ficar em branco.; another' });
    expect(refusedFields(translator('en'), refused)).toEqual({ url: 'must be an https address of at most 2048 characters.', name: 'must not be blank.; another' });
    expect(refusedFields(translator('en'), conflict('Store is suspended'))).toBeUndefined();
    expect(refusedFields(translator('en'), validationError([{ field: 'cursor', message: 'x' }]))).toBeUndefined();
  });
});
