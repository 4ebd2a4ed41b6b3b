import { createHash } from 'node:crypto';

/**
 * Pinned payment recipients are kept as hashes only: the SDK hashes the key it sees on the page the same way,
 * so a swapped key (a Pix key, say) is caught without the key ever leaving the page or being stored here.
 *
 * Normalization (the SDK contract, documented in docs/decisions.md): trim; lower case; keys made only of
 * digits, spaces and `.-/()` with an optional leading `+` (phone numbers, CPF, CNPJ) keep only the `+` and the
 * digits; any other key loses its white space.
 */
export function normalizeRecipientKey(key: string): string {
  const trimmed = key.trim().toLowerCase();
  if (/^\+?[\d\s.\-/()]+$/.test(trimmed)) return trimmed.replace(/(?!^\+)[^\d]/g, '');
  return trimmed.replace(/\s+/g, '');
}

export const hashRecipientKey = (key: string): string =>
  createHash('sha256').update(normalizeRecipientKey(key)).digest('hex');

/** Enough of the key for a person to recognise it, never enough to use it. */
export function maskRecipientKey(key: string): string {
  const normalized = normalizeRecipientKey(key);
  if (normalized.length <= 6) return '*'.repeat(Math.max(4, normalized.length));
  return `${normalized.slice(0, 2)}${'*'.repeat(Math.min(normalized.length - 4, 12))}${normalized.slice(-2)}`;
}
