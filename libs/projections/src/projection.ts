import type { EventFilter, RecordedEvent } from '@pss/event-store';
import type { AnyDocument, Document, IndexSpec, ReadCollection } from '@pss/read-store';

/**
 * A read model builder. It owns its collections (nobody else writes them), so it can be dropped and rebuilt
 * from the event store at any time. Handlers must be idempotent: after a crash, the events since the last
 * checkpoint are delivered again (`applyOnce` makes that easy).
 */
export interface Projection {
  readonly name: string;
  readonly filter: EventFilter;
  /** The collections it owns, by name, with the indexes its readers need. */
  readonly collections: Readonly<Record<string, IndexSpec[]>>;
  /**
   * Bump when what the read model holds changes in code outside this class (a helper it calls): a snapshot of
   * the read model taken under another version, or another source of the class, is not loaded but rebuilt.
   */
  readonly version?: number;
  handle(event: RecordedEvent, context: ProjectionContext): Promise<void>;
}

/** Gives a handler its collections by name; during a rebuild the same names point at shadow collections. */
export interface ProjectionContext {
  collection<T extends Document = AnyDocument>(name: string): ReadCollection<T>;
}

/** Collections that record how far each projection has read; they live beside the data they describe. */
export const CHECKPOINT_COLLECTION = 'projection_checkpoints';

export interface CheckpointDocument extends Document {
  position: number;
  updated_at: string;
}
