import { Inject, Injectable } from '@nestjs/common';
import { REPORT_SNAPSHOTS, reportPdfKey, type ReportSnapshotDocument } from '@pss/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { FILE_STORE, type FileStore } from '@pss/files';
import { AggregateRepository, PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { evidenceChainStream, keptDataKeys, snapshotDecider, type EvidenceChain } from './snapshot.decider';

/** Retention is counted in days: looking once an hour removes data at most an hour late. */
export const SNAPSHOT_RETENTION_INTERVAL_MS = 60 * 60_000;
/** Stores looked at per run, so one run stays short; the next run goes on. */
const STORES_PER_RUN = 100;
const DAY_MS = 24 * 3600_000;
/** `actor` of the expiry events. */
const RETENTION_LABEL = 'retention';

/**
 * On-demand snapshots are kept REPORT_ON_DEMAND_RETENTION_DAYS: then each is marked expired on its store's chain
 * (its record, hashes and place stay, so the chain still verifies) and the files no kept snapshot of the store
 * needs are removed: its PDF, and its body unless a kept snapshot shares it. Scheduled snapshots are kept.
 */
@Injectable()
export class SnapshotRetentionJob extends PeriodicJob {
  private readonly retentionDays: number;

  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(FILE_STORE) private readonly files: FileStore,
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
  ) {
    super('SnapshotRetentionJob', SNAPSHOT_RETENTION_INTERVAL_MS);
    this.retentionDays = config.reportOnDemandRetentionDays;
  }

  protected async once(): Promise<number> {
    return (await this.expireAt(this.clock.now())).length;
  }

  /** Expires what is past its time at `now`; answers the snapshots expired. */
  async expireAt(now: Date): Promise<string[]> {
    const createdBefore = new Date(now.getTime() - this.retentionDays * DAY_MS).toISOString();
    const due = await this.readStore
      .collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS)
      .find({ kind: 'on_demand', created_at: { $lt: createdBefore }, _expired_at: { $exists: false } }, { sort: { created_at: 1 }, limit: STORES_PER_RUN * 10 });
    const stores = new Map(due.map((snapshot) => [snapshot.store_id, snapshot.org_id]));
    const expired: string[] = [];
    for (const [storeId, orgId] of [...stores].slice(0, STORES_PER_RUN)) expired.push(...(await this.expireStore(storeId, orgId, createdBefore, now)));
    return expired;
  }

  private async expireStore(storeId: string, orgId: string, createdBefore: string, now: Date): Promise<string[]> {
    const stream = evidenceChainStream(storeId);
    const command = { type: 'ExpireOnDemand' as const, createdBefore, at: now.toISOString(), retentionDays: this.retentionDays };
    const { events, state } = await this.aggregates.decide(stream, snapshotDecider, command, { actor: RETENTION_LABEL, orgId });
    const expired = events.map((event) => event.data.snapshotId);
    for (const snapshotId of expired) await this.files.delete(reportPdfKey(snapshotId));
    // Every expired snapshot's, not only today's: a run a crash cut short left some behind.
    for (const key of unneededDataKeys(state)) await this.removeUnlessKept(stream, key);
    return expired;
  }

  /**
   * A snapshot recorded meanwhile may have found this body stored and reused it. The chain is read again after
   * the removal: a kept snapshot on it now gets the body back (and the generator, once its snapshot is recorded,
   * puts back a body it finds gone), so whichever comes second sees the other.
   */
  private async removeUnlessKept(stream: string, key: string): Promise<void> {
    const file = await this.files.get(key);
    if (!file) return;
    await this.files.delete(key);
    const { state } = await this.aggregates.load(stream, snapshotDecider);
    if (keptDataKeys(state).has(key)) await this.files.put(key, file.bytes, file.contentType);
  }
}

/** The data files of a store's expired snapshots that none of its kept snapshots shares. */
function unneededDataKeys(chain: EvidenceChain): Set<string> {
  const kept = keptDataKeys(chain);
  return new Set([...chain.snapshots.values()].filter((entry) => entry.expired && !kept.has(entry.dataKey)).map((entry) => entry.dataKey));
}
