import type { ReportCsvTable, ReportKind, ReportLocale } from '@pss/contracts';
import type { Decider, DomainEvent } from '@pss/kernel';

/** A snapshot as recorded: immutable; `data` itself is in the file store under `dataKey`, named by its sha256. */
export interface RecordedSnapshot {
  snapshotId: string;
  storeId: string;
  orgId: string;
  kind: ReportKind;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
  schemaVersion: number;
  sha256: string;
  generatedBy: string;
  hasPdf: boolean;
  csvTables: ReportCsvTable[];
  dataKey: string;
  /** The store's domain as of period_end (names the snapshot's files). */
  domain: string;
  createdAt: string;
}

export type SnapshotEvent = DomainEvent<
  'ReportSnapshotRecorded',
  RecordedSnapshot & {
    previousSha256: string | null;
    /** Its position on the chain, from 1 (absent from snapshots recorded before it was added: revision + 1). */
    sequence?: number;
  }
>;

export type SnapshotCommand = { type: 'RecordSnapshot'; snapshot: RecordedSnapshot };

export interface EvidenceChain {
  /** sha256 of the store's newest snapshot. */
  head: string | null;
  snapshotIds: ReadonlySet<string>;
  /** Snapshots on the chain. */
  length: number;
}

/**
 * A store's report snapshots as one chain of evidence (stream `report-<store id>`): each snapshot records the
 * sha256 of the one before it, and appends with the expected revision keep the chain linear when two
 * snapshots are made at once: so a snapshot's `sequence` (its place on the chain) orders the chain, where
 * created_at, taken before the data is built, may not. Recording a snapshot id twice (a scheduled run on two replicas) records it once.
 */
export const snapshotDecider: Decider<EvidenceChain, SnapshotCommand, SnapshotEvent> = {
  initialState: () => ({ head: null, snapshotIds: new Set(), length: 0 }),
  decide: ({ snapshot }, chain) =>
    chain.snapshotIds.has(snapshot.snapshotId)
      ? []
      : [{ type: 'ReportSnapshotRecorded', data: { ...snapshot, previousSha256: chain.head, sequence: chain.length + 1 } }],
  evolve: (chain, { data }) => ({ head: data.sha256, snapshotIds: new Set([...chain.snapshotIds, data.snapshotId]), length: chain.length + 1 }),
};

export const evidenceChainStream = (storeId: string): string => `report-${storeId}`;
