import { convertToCommandError } from '@eventstore/db-client';
import { status, Metadata } from '@grpc/grpc-js';
import {
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
} from 'mongodb';
// Not exported by the package, but what the driver throws when an election or a dead socket clears its pool.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PoolClearedError, PoolClearedOnNetworkError, WaitQueueTimeoutError } = require('mongodb/lib/cmap/errors') as Record<string, new (...args: unknown[]) => Error>;
import { ReadDeadlineExceededError } from '@pss/event-store';
import { isOutage } from './outage';

/** A gRPC failure as the EventStoreDB client receives it, converted as the client converts it. */
const esdbFailure = (code: status, trailers: Record<string, string> = {}): Error => {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return convertToCommandError(Object.assign(new Error('call failed'), { code, details: 'call failed', metadata }) as never);
};
const pool = { address: 'mongo:27017', serverError: new MongoNetworkError('connection reset') };

// The drivers' own error classes (mongodb 6, @eventstore/db-client 6), built as the drivers build them: a name
// list that misses one turns an election or a restart into a 500 and a dead letter (review D11).
describe('isOutage', () => {
  it.each([
    ['server selection timed out', new MongoServerSelectionError('Server selection timed out after 3000 ms', { servers: new Map() } as never)],
    ['a network error', new MongoNetworkError('connection reset')],
    ['a socket timeout', new MongoNetworkTimeoutError('connection timed out')],
    ['the pool cleared', new PoolClearedError(pool as never)],
    ['the pool cleared on a network error', new PoolClearedOnNetworkError(pool as never)],
    ['no connection free in time', new WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', 'mongo:27017')],
    ['NotWritablePrimary (an election)', new MongoServerError({ code: 10107, errmsg: 'not primary' })],
    ['PrimarySteppedDown', new MongoServerError({ code: 189, errmsg: 'primary stepped down' })],
    ['InterruptedDueToReplStateChange', new MongoServerError({ code: 11602, errmsg: 'operation was interrupted' })],
    ['ShutdownInProgress', new MongoServerError({ code: 91, errmsg: 'shutdown in progress' })],
    ['a write concern lost to an election', new MongoWriteConcernError({ writeConcernError: { code: 189, errmsg: 'stepped down' } } as never)],
    ['EventStoreDB unavailable', esdbFailure(status.UNAVAILABLE)],
    ['an EventStoreDB deadline', esdbFailure(status.DEADLINE_EXCEEDED)],
    ['an EventStoreDB call the server cancelled', esdbFailure(status.CANCELLED)],
    ['a read past the adapter\'s own deadline', new ReadDeadlineExceededError('read of store-1', 10_000)],
    ['not the leader', esdbFailure(status.NOT_FOUND, { exception: 'not-leader', 'leader-endpoint-host': 'esdb-2', 'leader-endpoint-port': '2113' })],
  ])('recognises %s', (_what, failure) => {
    expect(isOutage(failure)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a duplicate key', new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' })],
    ['a wrong expected version', esdbFailure(status.FAILED_PRECONDITION, { exception: 'wrong-expected-version', 'stream-name': 'store-1', 'expected-version': '0', 'actual-version': '1' })],
    ['not an error at all', 'unavailable'],
  ])('does not take %s for an outage', (_what, failure) => {
    expect(isOutage(failure)).toBe(false);
  });
});
