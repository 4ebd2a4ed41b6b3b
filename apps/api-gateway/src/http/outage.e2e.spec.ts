import { READ_STORE, type ReadStore } from '@pss/read-store';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/** MongoDB's own error when no server can be selected (driver 6), as the gateway's reads would meet it. */
class MongoServerSelectionError extends Error {
  override readonly name = 'MongoServerSelectionError';
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
