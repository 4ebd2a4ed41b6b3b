/**
 * A command's refusal of one field: a stable reason beside the API's words. The words are what the API answers, word
 * for word; the reason (and its numbers) is what a page in another language says its own sentence by, so no page
 * has to read English prose, and a reworded message cannot silently lose its translation.
 */
export interface FieldRefusal {
  field: string;
  reason: string;
  message: string;
  params?: Record<string, string | number>;
}

/** A field without its list indexes: `payment_pages.2.url_pattern` is refused as any page's `payment_pages.url_pattern`. */
const unindexed = (field: string | undefined): string | undefined => field?.replace(/\.\d+(?=\.|$)/g, '');

/** The refusal of `known` a detail is (same field, same words); undefined for one it does not list. */
export const knownRefusal = (known: readonly FieldRefusal[], detail: { field?: string; message: string }): FieldRefusal | undefined =>
  known.find((refusal) => refusal.field === unindexed(detail.field) && refusal.message === detail.message);

/** A refusal's detail as the API answers it; a reason `known` does not list is a programming error. */
export function refusalDetail(known: readonly FieldRefusal[], field: string, reason: string): { field: string; message: string } {
  const refusal = known.find((candidate) => candidate.field === unindexed(field) && candidate.reason === reason);
  if (!refusal) throw new Error(`no refusal ${reason} for ${field}`);
  return { field, message: refusal.message };
}
