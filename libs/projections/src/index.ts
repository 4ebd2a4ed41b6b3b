export * from './projection';
export * from './read-model-projection';
export * from './apply-once';
export * from './projection-runner';
export * from './integration-publisher';
export type { RebuildProgress, RebuildResult } from './rebuild';
export { ReadModelSnapshots, DEFAULT_SNAPSHOT_OPTIONS, type SnapshottableReadStore, type SnapshotOptions, type RestoreSummary } from './snapshots/read-model-snapshots';
export * from './audit-log-projection';
