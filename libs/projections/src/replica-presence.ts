import type { Document, ReadStore } from '@pss/read-store';

/** Where every replica running projections says so, beside the rebuild leases (shared by every replica). */
export const REPLICA_PRESENCE = 'projection_replicas';

interface PresenceDocument extends Document {
  /** The projections this replica keeps live: a rebuild waits only for those running the one it swaps. */
  projections: string[];
  /** Epoch milliseconds after which the replica counts as gone (it died without leaving). */
  expires_at: number;
  renewed_at: string;
}

/**
 * A replica's presence among those sharing the read store. A rebuild must pause every replica writing the
 * projection before it swaps; presence is how it knows which ones there are, and a crashed replica drops out
 * by not renewing.
 */
export class ReplicaPresence {
  constructor(
    private readonly readStore: ReadStore,
    readonly replica: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async renew(projections: string[]): Promise<void> {
    const at = this.now();
    await this.presences().upsert({ _id: this.replica, projections, expires_at: at + this.ttlMs, renewed_at: new Date(at).toISOString() });
  }

  async leave(): Promise<void> {
    await this.presences().deleteMany({ _id: this.replica });
  }

  /** The replicas, renewed and not expired, that keep `projection` live. */
  static async running(readStore: ReadStore, projection: string, now: number): Promise<string[]> {
    const present = await readStore.collection<PresenceDocument>(REPLICA_PRESENCE).find({ projections: projection, expires_at: { $gt: now } });
    return present.map((presence) => presence._id);
  }

  private presences() {
    return this.readStore.collection<PresenceDocument>(REPLICA_PRESENCE);
  }
}
