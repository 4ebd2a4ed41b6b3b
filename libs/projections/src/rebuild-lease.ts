import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DomainError } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';
import { Lease, type LeaseDocument } from './lease';

/** Where the replica rebuilding a projection holds its lease, beside the read models (shared by every replica). */
export const REBUILD_LEASES = 'projection_rebuilds';
/** A lease not renewed for this long is abandoned (its replica died mid-rebuild): its shadows may be dropped. */
export const LEASE_MS = 60_000;
const RENEW_EVERY_MS = LEASE_MS / 4;

export type RebuildLeaseDocument = LeaseDocument;

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

  private constructor(private readonly lease: Lease) {}

  /** Takes the lease, or refuses when a live replica holds it. */
  static async acquire(readStore: ReadStore, projection: string, owner: string, now: () => number): Promise<RebuildLease> {
    const lease = new Lease(readStore, REBUILD_LEASES, projection, owner, LEASE_MS, now);
    if (!(await lease.take())) {
      const holder = await lease.holder();
      throw new DomainError('conflict', `projection ${projection} is already being rebuilt by replica ${holder?.owner ?? 'unknown'}`);
    }
    const rebuild = new RebuildLease(lease);
    // The next renewal tries again after a failed one; the lease has LEASE_MS of slack.
    rebuild.timer = setInterval(() => void lease.renew().catch(() => undefined), RENEW_EVERY_MS);
    rebuild.timer.unref();
    return rebuild;
  }

  /** Whether the shadows of `projection` are abandoned: no lease, or one its replica stopped renewing. */
  static async abandoned(readStore: ReadStore, projection: string, now: () => number): Promise<boolean> {
    const lease = await readStore.collection<LeaseDocument>(REBUILD_LEASES).findOne({ _id: projection });
    return !lease || lease.expires_at <= now();
  }

  /** Forgets an abandoned lease, unless a replica took it again meanwhile. */
  static async clearAbandoned(readStore: ReadStore, projection: string, now: () => number): Promise<void> {
    await readStore.collection<LeaseDocument>(REBUILD_LEASES).deleteMany({ _id: projection, expires_at: { $lte: now() } });
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.lease.release();
  }
}
