import { ATTEMPT_ERRORS } from '@pss/contracts';
import { translator } from '../i18n/catalogue';
import { knownWebhookError } from './attempt-errors';

describe("a failed webhook attempt's outcome as the page says it", () => {
  // Every word the notifier may record, in both languages: a new word without its sentence fails here (and in tsc).
  it.each(Object.values(ATTEMPT_ERRORS))('says %s as a sentence in each language', (word) => {
    for (const locale of ['pt-BR', 'en'] as const) {
      const said = knownWebhookError(translator(locale), word);
      expect(said).toMatch(/^[^{}]+\.$/);
      expect(said).not.toContain(word);
    }
  });

  it("says an HTTP status with its number, and nothing for words it does not know", () => {
    expect(knownWebhookError(translator('pt-BR'), 'http_410: gone')).toBe('o servidor do webhook respondeu com o status HTTP 410.');
    expect(knownWebhookError(translator('en'), 'http_500')).toBe('the webhook server answered with HTTP status 500.');
    expect(knownWebhookError(translator('en'), 'http_5000: no status')).toBeUndefined();
    expect(knownWebhookError(translator('en'), 'timeout while reading')).toBeUndefined();
    expect(knownWebhookError(translator('en'), '')).toBeUndefined();
  });
});
