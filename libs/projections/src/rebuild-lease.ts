import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DomainError } from '@pss/kernel';
import { DuplicateKeyError, type Document, type ReadStore } from '@pss/read-store';

/** Where the replica rebuilding a projection holds its lease, beside the read models (shared by every replica). */
export const REBUILD_LEASES = 'projection_rebuilds';
/** A lease not renewed for this long is abandoned (its replica died mid-rebuild): its shadows may be dropped. */
export const LEASE_MS = 60_000;
const RENEW_EVERY_MS = LEASE_MS / 4;

export interface RebuildLeaseDocument extends Document {
  owner: string;
  /** Epoch milliseconds after which the lease is abandoned unless renewed. */
  expires_at: number;
  renewed_at: string;
}

/** Names this process among the replicas: host, pid and a random part (pids repeat across containers). */
export const replicaId = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * The lease a replica holds on a projection's rebuild while it runs: taken before the shadow collections are
 * created, renewed while the replay goes on, given back at the end. Another replica that starts meanwhile leaves
 * the shadows alone, and a second rebuild of the same projection is refused; shadows whose lease expired belong to
 * a replica that died mid-rebuild and are dropped by the next start.
 */
export class RebuildLease {
  private timer?: NodeJS.Timeout;

  private constructor(
    private readonly readStore: ReadStore,
    private readonly projection: string,
    private readonly owner: string,
    private readonly now: () => number,
  ) {}

  /** Takes the lease, or refuses when a live replica holds it. */
  static async acquire(readStore: ReadStore, projection: string, owner: string, now: () => number): Promise<RebuildLease> {
    const lease = new RebuildLease(readStore, projection, owner, now);
    const leases = readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES);
    try {
      // Free, expired, or already ours: an upsert whose filter misses a live lease of another replica collides.
      await leases.updateOne(
        { _id: projection, $or: [{ expires_at: { $lte: now() } }, { owner }] },
        { $set: lease.renewal() },
        { upsert: true },
      );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const holder = await leases.findOne({ _id: projection });
      throw new DomainError('conflict', `projection ${projection} is already being rebuilt by replica ${holder?.owner ?? 'unknown'}`);
    }
    lease.timer = setInterval(() => void lease.renew(), RENEW_EVERY_MS);
    lease.timer.unref();
    return lease;
  }

  /** Whether the shadows of `projection` are abandoned: no lease, or one its replica stopped renewing. */
  static async abandoned(readStore: ReadStore, projection: string, now: () => number): Promise<boolean> {
    const lease = await readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES).findOne({ _id: projection });
    return !lease || lease.expires_at <= now();
  }

  /** Forgets an abandoned lease, unless a replica took it again meanwhile. */
  static async clearAbandoned(readStore: ReadStore, projection: string, now: () => number): Promise<void> {
    await readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES).deleteMany({ _id: projection, expires_at: { $lte: now() } });
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES).deleteMany({ _id: this.projection, owner: this.owner });
  }

  private async renew(): Promise<void> {
    await this.readStore
      .collection<RebuildLeaseDocument>(REBUILD_LEASES)
      .updateOne({ _id: this.projection, owner: this.owner }, { $set: this.renewal() })
      .catch(() => undefined); // the next renewal tries again; the lease has LEASE_MS of slack
  }

  private renewal(): Omit<RebuildLeaseDocument, '_id'> {
    return { owner: this.owner, expires_at: this.now() + LEASE_MS, renewed_at: new Date(this.now()).toISOString() };
  }
}
