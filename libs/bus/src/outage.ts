/**
 * Whether a failure is a store being out of reach (EventStoreDB or MongoDB down, no primary, a call past its
 * deadline) rather than a bug: the caller gets 503 service_unavailable, which it may retry, not 500.
 *
 * Recognised by the drivers' error names and types, so the bus needs neither driver: MongoDB's server selection,
 * network and closed-topology errors (mongodb 6), and the EventStoreDB client's unavailable, deadline and timeout
 * errors (`type` of its CommandError).
 */
const MONGO_OUTAGES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoOperationTimeoutError',
]);
const ESDB_OUTAGES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'not-leader']);

export function isOutage(failure: unknown): boolean {
  if (!(failure instanceof Error)) return false;
  if (MONGO_OUTAGES.has(failure.name)) return true;
  const { type } = failure as Error & { type?: unknown };
  return typeof type === 'string' && ESDB_OUTAGES.has(type);
}
