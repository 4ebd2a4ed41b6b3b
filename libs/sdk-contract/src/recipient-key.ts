/**
 * Payment recipient keys are compared as hashes of one normalization, which the SDK (hashing the key it sees on
 * the page) and inventory (hashing the store's pinned keys) must share to the byte: trim; lower case; keys made
 * only of digits, spaces and `.-/()` with an optional leading `+` (phone numbers, CPF, CNPJ) keep only the `+`
 * and the digits; any other key loses its white space.
 */
export function normalizeRecipientKey(key: string): string {
  const trimmed = key.trim().toLowerCase();
  if (/^\+?[\d\s.\-/()]+$/.test(trimmed)) return trimmed.replace(/(?!^\+)[^\d]/g, '');
  return trimmed.replace(/\s+/g, '');
}
