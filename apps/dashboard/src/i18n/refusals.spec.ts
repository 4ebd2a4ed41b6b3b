import { conflict, DomainError, notFound } from '@pss/kernel';
import { ALERT_NOTE_REFUSALS, assertStoreWritable, POLICY_TERMS_REFUSALS, SCRIPT_DECISION_REFUSALS, STORE_SETTINGS_REFUSALS, WEBHOOK_SETTINGS_REFUSALS, type FieldRefusal } from '@pss/contracts';
import { CHANNEL_REFUSALS } from '../email-channels/email-channel-form';
import { translator } from './catalogue';
import { fieldRefusalText, refusalText, type KnownRefusal } from './refusals';

const ptBR = translator('pt-BR');
const en = translator('en');
const thrown = (act: () => void): DomainError => {
  try {
    act();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('nothing was thrown');
};

describe("a service's refusal as a page says it", () => {
  it("says the notifier's known channel refusals in the person's language, with the limit's own number", () => {
    const suspended = thrown(() => assertStoreWritable({ status: 'suspended' }));
    expect(refusalText(ptBR, suspended, CHANNEL_REFUSALS)).toBe('a loja está suspensa; ela pode ser consultada, mas não alterada.');
    expect(refusalText(en, suspended, CHANNEL_REFUSALS)).toBe('the store is suspended; it can be read but not changed.');

    const organizationFull = conflict('An organization has at most 20 organization-wide webhooks; delete one or give this one a store_id');
    expect(refusalText(ptBR, organizationFull, CHANNEL_REFUSALS)).toBe('uma organização tem no máximo 20 canais para toda a organização, webhooks incluídos; exclua um ou escolha uma loja.');
    const storeFull = conflict("A store has at most 7 channels of its own (its owner's e-mail channel included); delete one first");
    expect(refusalText(en, storeFull, CHANNEL_REFUSALS)).toBe("a store has at most 7 channels of its own, its owner's e-mail channel included; delete one first.");
    expect(refusalText(ptBR, storeFull, CHANNEL_REFUSALS)).toBe('uma loja tem no máximo 7 canais próprios, o e-mail do proprietário da loja incluído; exclua um antes.');

    // A code known without a message: whatever the service wrote.
    expect(refusalText(ptBR, notFound('E-mail channel'), CHANNEL_REFUSALS)).toBe('o canal não existe mais.');
  });

  it("falls back to the service's own words for a refusal it does not know, and never for a known one's look-alike", () => {
    const unknownCode = new DomainError('plan_limit', 'Your plan allows 3 stores');
    expect(refusalText(ptBR, unknownCode, CHANNEL_REFUSALS)).toBe('Your plan allows 3 stores');
    // `conflict` is known, but only with these messages: another conflict keeps its reason rather than a wrong one.
    const otherConflict = conflict('Store is suspended; it takes no new rules');
    expect(refusalText(ptBR, otherConflict, CHANNEL_REFUSALS)).toBe('Store is suspended; it takes no new rules');
    // A message of a known refusal under another code is not that refusal.
    expect(refusalText(en, new DomainError('validation_error', 'Store is suspended; it can be read but not changed'), CHANNEL_REFUSALS)).toBe(
      'Store is suspended; it can be read but not changed',
    );
  });

  it('takes the first rule that matches, and leaves a placeholder no group fills as it is', () => {
    const rules: KnownRefusal[] = [
      { code: 'conflict', message: /^at most \d+$/, key: 'channels.refused.store-limit' },
      { code: 'conflict', key: 'channels.refused.not-found' },
    ];
    expect(refusalText(en, conflict('at most 3'), rules)).toBe("a store has at most {max} channels of its own, its owner's e-mail channel included; delete one first.");
    expect(refusalText(en, conflict('anything else'), rules)).toBe('the channel no longer exists.');
  });
});

describe("a field's refusal as a page says it", () => {
  const shared: [string, readonly FieldRefusal[]][] = [
    ['policy match and conditions', POLICY_TERMS_REFUSALS],
    ['webhook settings', WEBHOOK_SETTINGS_REFUSALS],
    ['store settings', STORE_SETTINGS_REFUSALS],
    ['alert note', ALERT_NOTE_REFUSALS],
    ['script decisions', SCRIPT_DECISION_REFUSALS],
  ];

  // Fails when the shared validation gains a reason the catalogue has no sentence for, in either language.
  it.each(shared.flatMap(([form, known]) => known.map((refusal) => [form, refusal.field, refusal.reason, refusal, known] as const)))(
    '%s: %s refused as %s is a sentence in each language',
    (_form, _field, _reason, refusal, known) => {
      for (const t of [ptBR, en]) {
        const said = fieldRefusalText(t, refusal, known);
        expect(said).not.toBe(refusal.message);
        expect(said).not.toMatch(/\{\w+\}/);
      }
    },
  );

  it("says the validation's own numbers, and the command's words for what it does not list", () => {
    const domain = { field: 'match.domain', message: 'match.domain items must be 1 to 253 characters' };
    expect(fieldRefusalText(ptBR, domain, POLICY_TERMS_REFUSALS)).toBe('cada item deve ter de 1 a 253 caracteres.');
    expect(fieldRefusalText(en, { field: 'conditions.prevalence_min', message: 'conditions.prevalence_min must be a number from 0 to 1' }, POLICY_TERMS_REFUSALS)).toBe(
      'must be a number from 0 to 1.',
    );
    // The same words about another field are not that refusal; unknown words stay the command's.
    expect(fieldRefusalText(ptBR, { ...domain, field: 'match.category' }, POLICY_TERMS_REFUSALS)).toBe(domain.message);
    expect(fieldRefusalText(ptBR, { field: 'priority', message: 'priority must be an integer' }, POLICY_TERMS_REFUSALS)).toBe('priority must be an integer');
  });
});
