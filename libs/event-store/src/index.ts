export * from './event-store.port';
export * from './checkpoint-store.port';
export * from './handled-events';
export * from './sqlite/sqlite-event-store';
export * from './sqlite/sqlite-checkpoint-store';
export * from './esdb/esdb-event-store';
export { ReadDeadlineExceededError } from './esdb/read-deadline';
