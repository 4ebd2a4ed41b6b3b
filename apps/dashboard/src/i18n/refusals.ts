import { knownRefusal, type FieldRefusal } from '@pss/contracts';
import { CATALOGUES, type MessageKey, type Translate } from './catalogue';

/**
 * A refusal a service's command is known to answer, and the catalogue key the page says it with. The API's codes
 * are coarse (`conflict` stands for a suspended store as for a full channel limit), so a rule may also name the
 * message: exactly, or by a pattern whose named groups (a limit's number) become the key's parameters.
 */
export interface KnownRefusal {
  code: string;
  message?: string | RegExp;
  key: MessageKey;
}

/**
 * What the page says for a service's refusal: the first known refusal it matches, in the person's language; the
 * service's own (English) message only for a refusal the dashboard does not know, rather than hiding the reason.
 */
export function refusalText(t: Translate, refusal: { code: string; message: string }, known: readonly KnownRefusal[]): string {
  for (const rule of known) {
    const params = rule.code === refusal.code ? matched(rule.message, refusal.message) : undefined;
    if (params) return t(rule.key, params);
  }
  return refusal.message;
}

function matched(expected: KnownRefusal['message'], message: string): Record<string, string> | undefined {
  if (expected === undefined || expected === message) return {};
  if (typeof expected === 'string') return undefined;
  const found = expected.exec(message);
  return found ? { ...found.groups } : undefined;
}

const isMessageKey = (key: string): key is MessageKey => key in CATALOGUES.en;

/**
 * What the page says beside a field a command refused: the shared validation's reason for those words, in the
 * person's language with the validation's numbers; the command's own words for a refusal it does not list.
 */
export function fieldRefusalText(t: Translate, detail: { field?: string; message: string }, known: readonly FieldRefusal[]): string {
  const refusal = knownRefusal(known, detail);
  const key = refusal ? `field-refused.${refusal.reason}` : '';
  return refusal && isMessageKey(key) ? t(key, refusal.params) : detail.message;
}
