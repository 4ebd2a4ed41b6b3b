export * from './idempotency-store.port';
export * from './fingerprint';
export * from './idempotency-store.module';
export { SqliteIdempotencyStore } from './sqlite/sqlite-idempotency-store';
export { ReadStoreIdempotencyStore } from './read-store/read-store-idempotency-store';
