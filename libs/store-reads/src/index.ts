// Queries of inventory's store read models that other services run too: the contracts describe the documents,
// this lib reads them (so the contracts stay free of the read store).
export * from './store-reads';
export * from './sdk-status';
