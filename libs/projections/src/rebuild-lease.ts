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

export interface RebuildLeaseDocument extends LeaseDocument {
  /** Raised once the replay is done: every other replica running the projection pauses it before the swap. */
  swapping?: boolean;
  /** The replicas that have paused it for this swap. */
  paused?: string[];
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
    private readonly lease: Lease,
    private readonly readStore: ReadStore,
  ) {}

  /** Takes the lease, or refuses when a live replica holds it. */
  static async acquire(readStore: ReadStore, projection: string, owner: string, now: () => number): Promise<RebuildLease> {
    const lease = new Lease(readStore, REBUILD_LEASES, projection, owner, LEASE_MS, now);
    if (!(await lease.take())) {
      const holder = await lease.holder();
      throw new DomainError('conflict', `projection ${projection} is already being rebuilt by replica ${holder?.owner ?? 'unknown'}`);
    }
    const rebuild = new RebuildLease(lease, readStore);
    // The next renewal tries again after a failed one; the lease has LEASE_MS of slack.
    rebuild.timer = setInterval(() => void lease.renew().catch(() => undefined), RENEW_EVERY_MS);
    rebuild.timer.unref();
    return rebuild;
  }

  /** Whether the shadows of `projection` are abandoned: no lease, or one its replica stopped renewing. */
  static async abandoned(readStore: ReadStore, projection: string, now: () => number): Promise<boolean> {
    const lease = await leasesIn(readStore).findOne({ _id: projection });
    return !lease || lease.expires_at <= now();
  }

  /** Forgets an abandoned lease, unless a replica took it again meanwhile. */
  static async clearAbandoned(readStore: ReadStore, projection: string, now: () => number): Promise<void> {
    await leasesIn(readStore).deleteMany({ _id: projection, expires_at: { $lte: now() } });
  }

  /** Asks every other replica to pause the projection; giving the lease back (`release`) lifts it. */
  async raiseFence(): Promise<void> {
    await leasesIn(this.readStore).updateOne({ _id: this.lease.name, owner: this.lease.owner }, { $set: { swapping: true, paused: [] } });
  }

  /** The replicas that have paused the projection since the fence went up. */
  async pausedReplicas(): Promise<string[]> {
    const lease = await leasesIn(this.readStore).findOne({ _id: this.lease.name, owner: this.lease.owner });
    return lease?.paused ?? [];
  }

  /** The fences up now, by projection, with the replica rebuilding each; one whose lease expired (its rebuild died) is down. */
  static async fences(readStore: ReadStore, now: number): Promise<Map<string, string>> {
    const swapping = await leasesIn(readStore).find({ swapping: true, expires_at: { $gt: now } });
    return new Map(swapping.map((lease) => [lease._id, lease.owner]));
  }

  /** Tells the rebuild of `projection` that `replica` has paused it (again: an acknowledgement may be repeated). */
  static async acknowledge(readStore: ReadStore, projection: string, replica: string): Promise<void> {
    await leasesIn(readStore).updateOne({ _id: projection, swapping: true }, { $addToSet: { paused: replica } });
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.lease.release();
  }
}

const leasesIn = (readStore: ReadStore) => readStore.collection<RebuildLeaseDocument>(REBUILD_LEASES);
