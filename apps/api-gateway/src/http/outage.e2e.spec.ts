import { MongoServerError } from 'mongodb';
import { EVENT_STORE, ReadDeadlineExceededError, type EventStore } from '@pss/event-store';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/** MongoDB's own error when no server can be selected (driver 6), as the gateway's reads would meet it. */
class MongoServerSelectionError extends Error {
  override readonly name = 'MongoServerSelectionError';
}

/** The driver's network error class, by which its subclasses are recognised (mongodb 6, error.js). */
class MongoNetworkError extends Error {}
/** What the driver throws once an election or a dead socket has cleared its connection pool (cmap/errors.js). */
class PoolClearedOnNetworkError extends MongoNetworkError {
  override readonly name = 'PoolClearedOnNetworkError';
}

describe('the gateway with its read store out of reach (embedded)', () => {
  let service: EmbeddedHarness;
  beforeAll(async () => (service = await EmbeddedHarness.start()));
  afterAll(() => service.close());

  it('answers a read 503 service_unavailable in the error shape, not 500, and recovers with the store', async () => {
    const { token } = await service.tenant(['stores:read']);
    const readStore = service.app.get<ReadStore>(READ_STORE);
    const outage = jest.spyOn(readStore, 'collection').mockImplementation(() => {
      throw new MongoServerSelectionError('Server selection timed out after 3000 ms');
    });

    const during = await service.request('GET', '/api/v1/stores', { token });
    outage.mockRestore();
    const after = await service.request('GET', '/api/v1/stores', { token });

    expect(during.status).toBe(503);
    expect(during.body).toEqual({ error: { code: 'service_unavailable', message: 'A data store is unavailable; retry shortly' } });
    expect(after.status).toBe(200);
  });
});

// Outages the gateway once answered 500 (review D11): the errors an election or a hung server raise.
describe('the gateway in outages it must recognise (embedded)', () => {
  let service: EmbeddedHarness;
  beforeAll(async () => (service = await EmbeddedHarness.start()));
  afterAll(() => service.close());

  const UNAVAILABLE = { error: { code: 'service_unavailable', message: 'A data store is unavailable; retry shortly' } };

  it.each([
    ['a MongoDB election (NotWritablePrimary)', () => new MongoServerError({ code: 10107, errmsg: 'not primary' })],
    ['a pool cleared after a network error', () => new PoolClearedOnNetworkError('Connection pool for mongo:27017 was cleared')],
  ])('answers a read in %s 503, not 500', async (_what, failure) => {
    const { token } = await service.tenant(['stores:read']);
    const readStore = service.app.get<ReadStore>(READ_STORE);
    const outage = jest.spyOn(readStore, 'collection').mockImplementation(() => {
      throw failure();
    });
    const during = await service.request('GET', '/api/v1/stores', { token });
    outage.mockRestore();

    expect([during.status, during.body]).toEqual([503, UNAVAILABLE]);
  });

  it('answers a write 503 when EventStoreDB gives no answer within the read deadline, and the retry succeeds', async () => {
    const { token } = await service.tenant(['stores:write']);
    const eventStore = service.app.get<EventStore>(EVENT_STORE);
    // The adapter's own deadline error, as a hung EventStoreDB read ends (the store hands out bound methods, so
    // the method is swapped, not spied).
    const readStream = eventStore.readStream;
    eventStore.readStream = async () => {
      throw new ReadDeadlineExceededError('read of store-x', 10_000);
    };
    const domain = `hung-${Date.now().toString(36)}.com.br`;
    const key = `hung-${Date.now()}`;
    const during = await service.request('POST', '/api/v1/stores', { token, body: { domain }, headers: { 'idempotency-key': key } });
    eventStore.readStream = readStream;
    const after = await service.request('POST', '/api/v1/stores', { token, body: { domain }, headers: { 'idempotency-key': key } });

    expect([during.status, during.body]).toEqual([503, UNAVAILABLE]);
    expect(after.status).toBe(201);
  });
});

