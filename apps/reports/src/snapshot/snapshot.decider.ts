import type { ReportCsvTable, ReportKind, ReportLocale } from '@pss/contracts';
import type { Decider, DomainEvent } from '@pss/kernel';

/** A snapshot as recorded: immutable; `data` itself is in the file store under `dataKey`. */
export interface RecordedSnapshot {
  snapshotId: string;
  storeId: string;
  orgId: string;
  kind: ReportKind;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
  schemaVersion: number;
  /** Of the whole data (its canonical JSON), as docs/reports.md tells an assessor to check it. */
  sha256: string;
  generatedBy: string;
  hasPdf: boolean;
  csvTables: ReportCsvTable[];
  /** The body file (`reports/bodies/<bodySha256>.json`, shared by equal reports), or the whole data's file before. */
  dataKey: string;
  /** Set when `dataKey` is a body: the data is the body with meta.report_id = snapshotId, generated_at = createdAt. */
  bodySha256?: string;
  /** The store's domain as of period_end (names the snapshot's files). */
  domain: string;
  createdAt: string;
}

export type SnapshotRecorded = DomainEvent<
  'ReportSnapshotRecorded',
  RecordedSnapshot & {
    previousSha256: string | null;
    /** Its position on the chain, from 1 (absent from snapshots recorded before it was added: revision + 1). */
    sequence?: number;
  }
>;

/** Retention removed an on-demand snapshot's data; its record, hashes and place on the chain stay. */
export type SnapshotExpired = DomainEvent<'ReportSnapshotExpired', { snapshotId: string; expiredAt: string; retentionDays: number }>;

export type SnapshotEvent = SnapshotRecorded | SnapshotExpired;

export type SnapshotCommand =
  | { type: 'RecordSnapshot'; snapshot: RecordedSnapshot }
  /** Every on-demand snapshot made before `createdBefore` and not expired yet. */
  | { type: 'ExpireOnDemand'; createdBefore: string; at: string; retentionDays: number };

export interface ChainEntry {
  kind: ReportKind;
  createdAt: string;
  dataKey: string;
  expired: boolean;
}

export interface EvidenceChain {
  /** sha256 of the store's newest snapshot. */
  head: string | null;
  snapshots: ReadonlyMap<string, ChainEntry>;
  /** Snapshots on the chain. */
  length: number;
}

/**
 * A store's report snapshots as one chain of evidence (stream `report-<store id>`): each snapshot records the
 * sha256 of the one before it, and appends with the expected revision keep the chain linear when two
 * snapshots are made at once: so a snapshot's `sequence` (its place on the chain) orders the chain, where
 * created_at, taken before the data is built, may not. Recording a snapshot id twice (a scheduled run on two replicas) records it once.
 * Expiring a snapshot takes no place on the chain: the evidence that it existed, and what it hashed to, stays.
 */
export const snapshotDecider: Decider<EvidenceChain, SnapshotCommand, SnapshotEvent> = {
  initialState: () => ({ head: null, snapshots: new Map(), length: 0 }),
  decide: (command, chain) => {
    if (command.type === 'ExpireOnDemand') {
      const { createdBefore, at, retentionDays } = command;
      return [...chain.snapshots]
        .filter(([, entry]) => entry.kind === 'on_demand' && !entry.expired && entry.createdAt < createdBefore)
        .map(([snapshotId]) => ({ type: 'ReportSnapshotExpired', data: { snapshotId, expiredAt: at, retentionDays } }));
    }
    const { snapshot } = command;
    return chain.snapshots.has(snapshot.snapshotId)
      ? []
      : [{ type: 'ReportSnapshotRecorded', data: { ...snapshot, previousSha256: chain.head, sequence: chain.length + 1 } }];
  },
  evolve: (chain, event) => {
    const snapshots = new Map(chain.snapshots);
    if (event.type === 'ReportSnapshotExpired') {
      const entry = snapshots.get(event.data.snapshotId);
      if (entry) snapshots.set(event.data.snapshotId, { ...entry, expired: true });
      return { ...chain, snapshots };
    }
    const { snapshotId, kind, createdAt, dataKey, sha256 } = event.data;
    snapshots.set(snapshotId, { kind, createdAt, dataKey, expired: false });
    return { head: sha256, snapshots, length: chain.length + 1 };
  },
};

export const evidenceChainStream = (storeId: string): string => `report-${storeId}`;

/** The file keys a kept (not expired) snapshot of the chain needs. */
export const keptDataKeys = (chain: EvidenceChain): Set<string> =>
  new Set([...chain.snapshots.values()].filter((entry) => !entry.expired).map((entry) => entry.dataKey));
