import { SqliteEventStore, WrongExpectedRevisionError } from '@pss/event-store';
import { metricSample } from '@pss/testkit';
import { measureAppends } from './measured-event-store';
import { Metrics } from './metrics';

describe('measureAppends', () => {
  const metrics = new Metrics({ processMetrics: false });
  const adapter = SqliteEventStore.open(':memory:');
  const store = measureAppends(adapter, metrics);
  afterAll(() => store.close());

  const count = async (outcome: string) =>
    metricSample((await metrics.exposition()).body, `pss_event_store_append_duration_seconds_count{outcome="${outcome}"}`);

  it('times appends by outcome and passes everything else through', async () => {
    await store.append('order-1', [{ type: 'Placed', data: {} }], { expectedRevision: 'no_stream' });
    await expect(store.append('order-1', [{ type: 'Placed', data: {} }], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await count('ok')).toBe(1);
    expect(await count('conflict')).toBe(1);
    expect((await store.readStream('order-1')).map((event) => event.type)).toEqual(['Placed']);
    expect(await store.headPosition()).toBe(await adapter.headPosition());
  });

  it('keeps the adapter recognisable: the idempotency store shares the SQLite database', () => {
    expect(store).toBeInstanceOf(SqliteEventStore);
    expect(store.database).toBe(adapter.database);
  });
});
