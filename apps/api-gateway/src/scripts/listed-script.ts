import type { toResource } from '@pss/contracts';

/**
 * A script as the list shows it: its resource without the review history. Built field by field in the document's
 * order (the bytes of `toResource` of the document without `reviews`): a rest spread of a 35-field document cost
 * more than the rest of the page's presentation.
 */
export function listedScript<T extends { _id: string; reviews: unknown }>(doc: T): Omit<ReturnType<typeof toResource<T>>, 'reviews'> {
  const resource: Record<string, unknown> = { id: doc._id };
  for (const key of Object.keys(doc)) if (key !== 'reviews' && !key.startsWith('_')) resource[key] = doc[key as keyof T];
  return resource as Omit<ReturnType<typeof toResource<T>>, 'reviews'>;
}
