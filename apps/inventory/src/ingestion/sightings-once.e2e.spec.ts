import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type SdkRecordSightingsCommand, type StoreSightings } from '@pss/contracts';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { EVENT_STORE, type EventStore } from '@pss/event-store';

/**
 * Issue 33, D6: a gateway that retries a flush after a bus timeout sends the same windows again, and Kafka may
 * deliver one command twice. Each window must be recorded once, or every count built from it (store activity,
 * script sightings, report hours) is inflated.
 */
describe('Sightings windows recorded once per window (embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:read', 'stores:write'] });

  const flushedFor = async (storeId: string): Promise<number> => {
    const events = await suite.service.app.get<EventStore>(EVENT_STORE).readAll({ filter: { streamPrefixes: ['sightings-'] }, maxCount: 10_000 });
    return events.filter((event) => (event.data as StoreSightings).storeId === storeId).length;
  };

  it('records a window sent twice (a retried flush, a redelivery) once, and another window of the store too', async () => {
    const store = await suite.newStore();
    const window = (windowId: string): StoreSightings => ({
      storeId: store.id,
      orgId: suite.orgId,
      windowId,
      firstEventAt: '2026-11-27T10:00:00.000Z',
      lastEventAt: '2026-11-27T10:00:04.000Z',
      batches: 3,
      observations: 6,
      scripts: [],
    });
    const bus = suite.service.app.get<Bus>(BUS);
    const flush = (windows: StoreSightings[]) => bus.request(COMMANDS.sdkRecordSightings, { windows } satisfies SdkRecordSightingsCommand);

    expect(await flush([window('w-1')])).toEqual({ failed_store_ids: [] });
    expect(await flush([window('w-1')])).toEqual({ failed_store_ids: [] });
    expect(await flushedFor(store.id)).toBe(1);
    await flush([window('w-2')]);
    expect(await flushedFor(store.id)).toBe(2);
  });
});
