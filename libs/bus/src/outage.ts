/**
 * Whether a failure is a store being out of reach (EventStoreDB or MongoDB down, no primary, a call past its
 * deadline) rather than a bug: the caller gets 503 service_unavailable, which it may retry, and an event handler
 * waits and retries instead of dead-lettering.
 *
 * Recognised by the drivers' class names along the error's prototype chain, so the bus needs neither driver and a
 * driver's subclass (mongodb's PoolClearedOnNetworkError is a MongoNetworkError) is covered by its parent:
 * MongoDB's server selection, network, pool and closed-topology errors (mongodb 6, `lib/error.js`,
 * `lib/cmap/errors.js`); its server errors that a replica-set election or shutdown raises, by code (the driver's
 * own retryable codes); and the EventStoreDB client's unavailable, deadline, timeout, cancelled and not-leader
 * errors (`type` of its CommandError, `utils/CommandError.js`).
 */
const MONGO_OUTAGES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoOperationTimeoutError',
  'MongoServerClosedError',
  'WaitQueueTimeoutError',
]);
/** HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, ExceededTimeLimit,
 * SocketException, NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk,
 * NotPrimaryOrSecondary, ReadConcernMajorityNotAvailableYet: the driver's RETRYABLE_READ_ERROR_CODES. */
const MONGO_OUTAGE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 134]);
const ESDB_OUTAGES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'not-leader', 'cancelled']);

export function isOutage(failure: unknown): boolean {
  if (!(failure instanceof Error)) return false;
  if (classNames(failure).some((name) => MONGO_OUTAGES.has(name))) return true;
  if (isMongoServerError(failure) && (MONGO_OUTAGE_CODES.has(failure.code) || MONGO_OUTAGE_CODES.has(failure.writeConcernError?.code ?? -1))) {
    return true;
  }
  const { type } = failure as Error & { type?: unknown };
  return typeof type === 'string' && ESDB_OUTAGES.has(type);
}

/** The error's `name` and the names of the classes it is an instance of. */
function classNames(failure: Error): string[] {
  const names = [failure.name];
  for (let prototype = Object.getPrototypeOf(failure); prototype && prototype !== Error.prototype; prototype = Object.getPrototypeOf(prototype)) {
    names.push((prototype as { constructor: { name: string } }).constructor.name);
  }
  return names;
}

type MongoServerFailure = Error & { code: number; writeConcernError?: { code?: number } };

const isMongoServerError = (failure: Error): failure is MongoServerFailure =>
  classNames(failure).includes('MongoServerError') && typeof (failure as { code?: unknown }).code === 'number';
