import { DomainError, validationError } from '@pss/kernel';
import { changesOf, channelRequirement, creationInput, recipientsOf, refusedFields } from './email-channel-form';

describe('the e-mail channel form', () => {
  it('splits recipients typed one per line or pasted with commas, semicolons or spaces', () => {
    expect(recipientsOf('ana@shop.example\r\nbruno@shop.example, carla@shop.example;  dan@shop.example\n')).toEqual([
      'ana@shop.example',
      'bruno@shop.example',
      'carla@shop.example',
      'dan@shop.example',
    ]);
    expect(recipientsOf('  ')).toEqual([]);
    expect(recipientsOf(undefined)).toEqual([]);
  });

  it('creates for the whole organization or one store, active only when the box is checked', () => {
    const form = { name: 'Security', recipients: 'a@shop.example', store_id: 'organization', min_severity: 'high', active: 'on' };
    expect(creationInput(form)).toEqual({ name: 'Security', recipients: ['a@shop.example'], store_id: null, min_severity: 'high', active: true });
    expect(creationInput({ ...form, store_id: 'store-1', active: '' })).toMatchObject({ store_id: 'store-1', active: false });
  });

  it('changes every setting but the scope', () => {
    expect(changesOf({ name: 'Finance', recipients: 'f@shop.example', min_severity: 'critical', store_id: 'store-1' })).toEqual({
      name: 'Finance',
      recipients: ['f@shop.example'],
      min_severity: 'critical',
      active: false,
    });
  });

  it('needs the organization owner for an organization-wide channel, a store owner of the store for a store one', () => {
    expect(channelRequirement(null)).toEqual({ kind: 'organization-owner' });
    expect(channelRequirement('store-1')).toEqual({ kind: 'store-owner', storeId: 'store-1' });
  });

  it("marks the fields a validation error names, and no field for other refusals", () => {
    const refused = validationError([
      { field: 'name', message: 'name is required' },
      { field: 'recipients', message: 'at least one recipient is required' },
      { field: 'recipients', message: 'again' },
      { field: 'org_id', message: 'not a form field' },
    ]);
    expect(refusedFields(refused)).toEqual(['name', 'recipients']);
    expect(refusedFields(validationError([{ field: 'org_id', message: 'x' }]))).toBeUndefined();
    expect(refusedFields(new DomainError('conflict', 'Store is suspended; it can be read but not changed'))).toBeUndefined();
    expect(refusedFields(new Error('boom'))).toBeUndefined();
  });
});
