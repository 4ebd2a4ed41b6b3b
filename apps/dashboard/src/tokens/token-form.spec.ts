import { SCOPES } from '@pss/contracts';
import { translator } from '../i18n/catalogue';
import { parseTokenForm, scopeField } from './token-form';

const form = (fields: Record<string, string>) => ({ name: 'CI', [scopeField('read-only')]: 'on', validity: '90', ...fields });

describe('the API token form', () => {
  it('turns the fields into the issue command: the name trimmed, the ticked scopes in order, the validity in days', () => {
    expect(parseTokenForm(form({ name: '  Auditor  ', [scopeField('scripts:review')]: 'on' }))).toEqual({
      values: { name: 'Auditor', scopes: ['read-only', 'scripts:review'], validity: '90' },
      errors: {},
      request: { name: 'Auditor', scopes: ['read-only', 'scripts:review'], validityDays: 90 },
    });
    expect(parseTokenForm(form({ validity: 'none' })).request?.validityDays).toBeNull();
    expect(parseTokenForm(form({ validity: '365' })).request?.validityDays).toBe(365);
  });

  it('offers every scope of the spec and the read-only shortcut, and nothing else', () => {
    const everything = Object.fromEntries(['read-only', ...SCOPES, 'admin:all'].map((scope) => [scopeField(scope), 'on']));
    expect(parseTokenForm(form(everything)).request?.scopes).toEqual(['read-only', ...SCOPES]);
  });

  it('names each field to fix, as the token decider would refuse it', () => {
    const { errors, request } = parseTokenForm({ name: ' ', validity: '60' });
    expect(request).toBeUndefined();
    expect(errors).toEqual({ name: { key: 'tokens.error.name-required' }, scopes: { key: 'tokens.error.scopes-required' }, validity: { key: 'tokens.error.validity' } });
    expect(parseTokenForm(form({ name: 'x'.repeat(80) })).errors).toEqual({});
    const tooLong = parseTokenForm(form({ name: 'x'.repeat(81) })).errors.name!;
    expect(translator('en')(tooLong.key, tooLong.params)).toBe('The name can have at most 80 characters.');
    expect(parseTokenForm({ name: 'CI', [scopeField('stores:read')]: 'on' }).errors).toEqual({ validity: { key: 'tokens.error.validity' } });
  });

  it("gives other roles the spec's message in both languages", () => {
    expect(translator('en')('tokens.owner-only')).toBe('Only the organization owner can manage tokens.');
    expect(translator('pt-BR')('tokens.owner-only')).toBe('Apenas o proprietário da organização pode gerenciar tokens.');
  });
});
