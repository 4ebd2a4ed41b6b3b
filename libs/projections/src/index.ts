export * from './projection';
export * from './apply-once';
export * from './projection-runner';
export * from './integration-publisher';
export type { RebuildProgress, RebuildResult } from './rebuild';
