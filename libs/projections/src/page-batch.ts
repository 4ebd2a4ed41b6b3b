import { WriteBackCollection, type AnyDocument, type Document, type HeldDocuments, type ReadCollection } from '@pss/read-store';
import type { ProjectionContext } from './projection';

/**
 * The collections of a projection seen through a write-back cache for one page of events: the handlers run
 * unchanged, event by event, but each document a page touches is read once and written once (`flush`), however
 * many of the page's events it absorbs. For replays into collections nobody else writes meanwhile (a rebuild's
 * shadows), where the whole-document writes of the flush cannot overwrite anyone's change.
 */
export class PageBatch implements ProjectionContext {
  private readonly held = new Map<string, HeldDocuments>();

  constructor(private readonly target: ProjectionContext) {}

  collection<T extends Document = AnyDocument>(name: string): ReadCollection<T> {
    return new WriteBackCollection<T>(this.target.collection<T>(name), this.heldOf(name));
  }

  /** How many documents the batch holds, over all collections: what it costs in memory. */
  documents(): number {
    let count = 0;
    for (const held of this.held.values()) count += held.size;
    return count;
  }

  /** Writes what the page changed and forgets it, ready for the next page. */
  async flush(): Promise<void> {
    for (const [name, held] of this.held) await new WriteBackCollection(this.target.collection(name), held).flush();
    this.held.clear();
  }

  private heldOf(name: string): HeldDocuments {
    let held = this.held.get(name);
    if (!held) {
      held = new Map();
      this.held.set(name, held);
    }
    return held;
  }
}
