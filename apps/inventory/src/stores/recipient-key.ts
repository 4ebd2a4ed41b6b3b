import { createHash } from 'node:crypto';
import { normalizeRecipientKey } from '@pss/sdk-contract';

/**
 * Pinned payment recipients are kept as hashes only: the SDK hashes the key it sees on the page the same way
 * (one normalization, in @pss/sdk-contract), so a swapped key (a Pix key, say) is caught without the key ever
 * leaving the page or being stored here.
 */
export const hashRecipientKey = (key: string): string =>
  createHash('sha256').update(normalizeRecipientKey(key)).digest('hex');

/** Enough of the key for a person to recognise it, never enough to use it. */
export function maskRecipientKey(key: string): string {
  const normalized = normalizeRecipientKey(key);
  if (normalized.length <= 6) return '*'.repeat(Math.max(4, normalized.length));
  return `${normalized.slice(0, 2)}${'*'.repeat(Math.min(normalized.length - 4, 12))}${normalized.slice(-2)}`;
}
