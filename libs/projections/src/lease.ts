import { DuplicateKeyError, type Document, type ReadStore } from '@pss/read-store';

export interface LeaseDocument extends Document {
  owner: string;
  /** Epoch milliseconds after which the lease is abandoned unless renewed. */
  expires_at: number;
  renewed_at: string;
}

/**
 * A named lease in the read store, which every replica shares: one owner at a time, for `ttlMs` after each take.
 * The read store's unique `_id` is the arbiter (MongoDB's, in distributed mode): an upsert whose filter misses a
 * live lease of another owner collides on the key, so two replicas never both hold it.
 */
export class Lease {
  constructor(
    private readonly readStore: ReadStore,
    private readonly collection: string,
    readonly name: string,
    readonly owner: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the lease, or renews it when held already; false while another owner holds it. */
  async take(): Promise<boolean> {
    try {
      await this.leases().updateOne({ _id: this.name, $or: [{ expires_at: { $lte: this.now() } }, { owner: this.owner }] }, { $set: this.renewal() }, { upsert: true });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Extends a lease this owner holds; does nothing to another's. */
  async renew(): Promise<void> {
    await this.leases().updateOne({ _id: this.name, owner: this.owner }, { $set: this.renewal() });
  }

  async holder(): Promise<LeaseDocument | null> {
    return this.leases().findOne({ _id: this.name });
  }

  /** Gives the lease back (when held), so another replica takes it at once rather than after `ttlMs`. */
  async release(): Promise<void> {
    await this.leases().deleteMany({ _id: this.name, owner: this.owner });
  }

  private leases() {
    return this.readStore.collection<LeaseDocument>(this.collection);
  }

  private renewal(): Omit<LeaseDocument, '_id'> {
    return { owner: this.owner, expires_at: this.now() + this.ttlMs, renewed_at: new Date(this.now()).toISOString() };
  }
}
