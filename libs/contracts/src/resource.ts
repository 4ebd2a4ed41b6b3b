/** A read-model document as the API shows it: `_id` becomes `id`, bookkeeping fields (`_…`) stay inside. */
export function toResource<T extends { _id: string }>(doc: T): Omit<T, '_id'> & { id: string } {
  const resource: Record<string, unknown> = { id: doc._id };
  for (const [key, value] of Object.entries(doc)) {
    if (!key.startsWith('_')) resource[key] = value;
  }
  return resource as Omit<T, '_id'> & { id: string };
}
