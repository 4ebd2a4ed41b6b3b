export * from './read-store.port';
export { MemoryReadStore } from './memory/memory-read-store';
export { MongoReadStore } from './mongo/mongo-read-store';
export { WriteBackCollection, type HeldDocuments } from './memory/write-back-collection';
export * from './page-query';
