import { Logger } from '@nestjs/common';
import { loadConfig } from '@pss/config';
import { SqliteEventStore, type EventStore } from '@pss/event-store';
import { AggregateRepository } from '@pss/platform';
import { ProjectionRunner } from '@pss/projections';
import { MemoryReadStore } from '@pss/read-store';
import { ManualClock } from '@pss/testkit';
import { AlertOccurrences } from './alert-occurrences';
import { alertDecider, type Occurrence } from './alert.decider';
import { alertIdFor, alertStream } from './alert.events';

/** The event store, counting the events its stream reads hand back. */
function countingReads(store: EventStore): { store: EventStore; read: () => number } {
  let read = 0;
  const counting = Object.create(store) as EventStore;
  counting.readStream = async (...args: Parameters<EventStore['readStream']>) => {
    const events = await store.readStream(...args);
    read += events.length;
    return events;
  };
  return { store: counting, read: () => read };
}

/** A replica's AlertOccurrences over a shared event store. */
function replica(eventStore: EventStore, clock: ManualClock): { occurrences: AlertOccurrences; aggregates: AggregateRepository } {
  const readStore = new MemoryReadStore();
  const aggregates = new AggregateRepository(eventStore, new ProjectionRunner(eventStore, readStore, new Logger('test')), loadConfig({}), readStore, clock);
  return { occurrences: new AlertOccurrences(aggregates, clock), aggregates };
}

const occurrence = (n: number): Occurrence => ({
  orgId: 'org-1',
  storeId: 'store-1',
  type: 'CSP_VIOLATION',
  fingerprint: 'hot',
  changeType: null,
  source: 'script-src',
  page: '/checkout',
  details: {},
  sessionId: `session-${n % 7}`,
  at: new Date(Date.UTC(2026, 10, 27, 10, 0, n)).toISOString(),
  mark: n,
});

/**
 * Issue 33, D7: an alert's stream grows by one event per occurrence. Reading it whole for each occurrence cost
 * O(n²) for a hot fingerprint (every page view repeating a CSP violation); each now reads what is new.
 */
describe('AlertOccurrences on a hot fingerprint', () => {
  const sqlite = SqliteEventStore.open(':memory:');
  const clock = new ManualClock('2026-11-27T10:00:00.000Z');
  afterAll(() => sqlite.close());

  it('reads each occurrence’s new events only, and two replicas recording in turn still count every one', async () => {
    const { store, read } = countingReads(sqlite);
    const first = replica(store, clock);
    const second = replica(store, clock);
    const occurrences = 400;

    for (let n = 1; n <= occurrences; n += 1) await (n % 5 === 0 ? second : first).occurrences.record(occurrence(n));

    // Whole-stream reads made this about occurrences² / 2 = 80,000.
    expect(read()).toBeLessThan(3 * occurrences);
    const { state } = await first.aggregates.load(alertStream(alertIdFor('hot', 0)), alertDecider);
    expect(state.alert?.occurrences).toBe(occurrences);
    expect(state.alert?.sessions_count).toBe(7);
  });
});
