import type { RecordedEvent } from '@pss/event-store';
import { DuplicateKeyError, type Document, type ReadCollection, type UpdateSpec } from '@pss/read-store';

/** The field in which a read-model document remembers the last event applied to it. */
export const POSITION_FIELD = '_position';

/**
 * Applies `update` to document `id` unless this event (or a later one) was already applied to it, so a
 * redelivered event changes nothing twice, counters included. Creates the document when `upsert` is set.
 */
export async function applyOnce<T extends Document>(
  collection: ReadCollection<T>,
  id: string,
  event: Pick<RecordedEvent, 'position'>,
  update: UpdateSpec,
  options: { upsert?: boolean } = {},
): Promise<boolean> {
  const notYetApplied = {
    _id: id,
    $or: [{ [POSITION_FIELD]: { $lt: event.position } }, { [POSITION_FIELD]: { $exists: false } }],
  };
  const withPosition: UpdateSpec = { ...update, $set: { ...(update.$set ?? {}), [POSITION_FIELD]: event.position } };
  try {
    const result = await collection.updateOne(notYetApplied, withPosition, { upsert: options.upsert });
    return result.matched > 0 || result.upserted;
  } catch (error) {
    // The upsert collided with the existing document: it exists and already saw this event.
    if (error instanceof DuplicateKeyError && options.upsert && Object.keys(error.keyValue).includes('_id')) return false;
    throw error;
  }
}

