import { isUuid, uuidv7 } from '@pss/kernel';
import {
  EventStore,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';

export interface EventStoreUnderTest {
  store: EventStore;
  /** Another instance on the same storage (another connection, as another process would have). */
  openSecond?: () => Promise<EventStore>;
  cleanup: () => Promise<void>;
}

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WAIT_MS = 10_000;

/** A stream category no other test (or earlier run against a shared server) uses. */
const newCategory = (): string => `conf${uuidv7().replace(/-/g, '')}`;
const newEvent = (type: string, data: unknown = {}): NewEvent => ({ type, data });

/** Records what a subscription reports and lets a test wait for a state without sleeping. */
class Recorder {
  readonly events: RecordedEvent[] = [];
  /** Each onCaughtUp position, with how many events had been delivered by then. */
  readonly caughtUp: Array<{ position: number; delivered: number }> = [];
  dropped?: Error;
  private readonly listeners = new Set<() => void>();

  readonly onEvent = async (event: RecordedEvent): Promise<void> => {
    this.events.push(event);
    this.changed();
  };
  readonly onCaughtUp = (position: number): void => {
    this.caughtUp.push({ position, delivered: this.events.length });
    this.changed();
  };
  readonly onDropped = (error: Error): void => {
    this.dropped = error;
    this.changed();
  };

  until(condition: () => boolean, what: string): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition()) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`Timed out waiting for ${what}; got ${this.events.length} events, caughtUp ${JSON.stringify(this.caughtUp)}`));
      }, WAIT_MS);
      this.listeners.add(check);
    });
  }

  eventCount(count: number): Promise<void> {
    return this.until(() => this.events.length >= count, `${count} events`);
  }

  caughtUpTo(position: number): Promise<void> {
    return this.until(() => this.caughtUp.some((report) => report.position >= position), `onCaughtUp(>= ${position})`);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const conflictOf = async (append: Promise<unknown>): Promise<WrongExpectedRevisionError> => {
  const error = await append.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
};

/** Lets pending callbacks and I/O run, to show something did not happen in the meantime. */
const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * The event store port's promises, as Jest tests. Every adapter runs this suite. Streams are unique per test, so
 * it also runs against a long-lived shared server.
 */
export function eventStoreConformance(name: string, factory: () => Promise<EventStoreUnderTest>): void {
  describe(`${name} conforms to the event store port`, () => {
    let subject: EventStoreUnderTest;
    let store: EventStore;
    const subscriptions: Subscription[] = [];
    const secondInstances: EventStore[] = [];

    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
    });

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
      await Promise.all(secondInstances.splice(0).map((instance) => instance.close()));
      await subject.cleanup();
    });

    const subscribe = (on: EventStore, options: SubscribeOptions): Subscription => {
      const subscription = on.subscribeToAll(options);
      subscriptions.push(subscription);
      return subscription;
    };

    const record = (options: Omit<SubscribeOptions, 'onEvent'> = {}, on: EventStore = store): Recorder => {
      const recorder = new Recorder();
      subscribe(on, {
        ...options,
        onEvent: recorder.onEvent,
        onCaughtUp: recorder.onCaughtUp,
        onDropped: recorder.onDropped,
      });
      return recorder;
    };

    const openSecond = async (): Promise<EventStore> => {
      expect(subject.openSecond).toBeDefined();
      const second = await subject.openSecond!();
      secondInstances.push(second);
      return second;
    };

    describe('append and read a stream', () => {
      it('numbers revisions from 0 and records id, stream, type, data, position and time for each event', async () => {
        const stream = `${newCategory()}-1`;
        const result = await store.append(stream, [newEvent('Opened', { n: 1 }), newEvent('Renamed', { n: 2 })], {
          expectedRevision: 'no_stream',
        });

        const events = await store.readStream(stream);
        expect(events.map(({ stream: s, revision, type, data }) => ({ s, revision, type, data }))).toEqual([
          { s: stream, revision: 0, type: 'Opened', data: { n: 1 } },
          { s: stream, revision: 1, type: 'Renamed', data: { n: 2 } },
        ]);
        expect(result.nextRevision).toBe(1);
        for (const event of events) {
          expect(isUuid(event.id)).toBe(true);
          expect(event.createdAt).toMatch(ISO_MILLIS);
          expect(Number.isSafeInteger(event.position) && event.position > 0).toBe(true);
        }
        expect(events[1].position).toBeGreaterThan(events[0].position);
        expect(result.position).toBe(events[1].position);
      });

      it('keeps a given event id and round-trips metadata', async () => {
        const stream = `${newCategory()}-1`;
        const id = uuidv7();
        const metadata = {
          correlationId: uuidv7(),
          causationId: uuidv7(),
          actor: 'api:pss_ab12',
          orgId: uuidv7(),
          schemaVersion: 2,
        };
        await store.append(stream, [{ id, type: 'Opened', data: { nested: { list: [1, 'two', null] } }, metadata }]);
        await store.append(stream, [newEvent('Closed')]);

        const [withMetadata, without] = await store.readStream(stream);
        expect(withMetadata.id).toBe(id);
        expect(withMetadata.data).toEqual({ nested: { list: [1, 'two', null] } });
        expect(withMetadata.metadata).toEqual(metadata);
        expect(without.metadata).toEqual({});
      });

      it('appends at the exact expected revision', async () => {
        const stream = `${newCategory()}-1`;
        await store.append(stream, [newEvent('Opened')], { expectedRevision: 'no_stream' });
        expect(await store.append(stream, [newEvent('Renamed')], { expectedRevision: 0 })).toMatchObject({ nextRevision: 1 });
        const result = await store.append(stream, [newEvent('Renamed'), newEvent('Closed')], { expectedRevision: 1 });
        expect(result.nextRevision).toBe(3);
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2, 3]);
      });

      it('appends with "any" (the default) whatever the stream holds', async () => {
        const stream = `${newCategory()}-1`;
        expect((await store.append(stream, [newEvent('Opened')], { expectedRevision: 'any' })).nextRevision).toBe(0);
        expect((await store.append(stream, [newEvent('Renamed')])).nextRevision).toBe(1);
      });

      it('rejects "no_stream" on an existing stream with a typed conflict and writes nothing', async () => {
        const stream = `${newCategory()}-1`;
        await store.append(stream, [newEvent('Opened'), newEvent('Renamed')]);

        const conflict = await conflictOf(store.append(stream, [newEvent('Opened')], { expectedRevision: 'no_stream' }));
        expect(conflict).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('rejects an exact revision behind or ahead of the stream with the actual revision', async () => {
        const stream = `${newCategory()}-1`;
        await store.append(stream, [newEvent('Opened'), newEvent('Renamed'), newEvent('Renamed')]);

        expect(await conflictOf(store.append(stream, [newEvent('X')], { expectedRevision: 1 }))).toMatchObject({
          stream,
          expected: 1,
          actual: 2,
        });
        expect(await conflictOf(store.append(stream, [newEvent('X')], { expectedRevision: 5 }))).toMatchObject({
          expected: 5,
          actual: 2,
        });
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it('rejects an exact revision on a missing stream with actual "no_stream"', async () => {
        const stream = `${newCategory()}-1`;
        const conflict = await conflictOf(store.append(stream, [newEvent('Opened')], { expectedRevision: 0 }));
        expect(conflict).toMatchObject({ stream, expected: 0, actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('refuses an append without events', async () => {
        await expect(store.append(`${newCategory()}-1`, [])).rejects.toThrow(/at least one event/);
      });

      it('reads a stream from a revision, at most maxCount events', async () => {
        const stream = `${newCategory()}-1`;
        await store.append(stream, [0, 1, 2, 3, 4].map((n) => newEvent('Counted', { n })));

        const revisions = async (options: { fromRevision?: number; maxCount?: number }): Promise<number[]> =>
          (await store.readStream(stream, options)).map((event) => event.revision);
        expect(await revisions({ fromRevision: 2 })).toEqual([2, 3, 4]);
        expect(await revisions({ maxCount: 2 })).toEqual([0, 1]);
        expect(await revisions({ fromRevision: 1, maxCount: 3 })).toEqual([1, 2, 3]);
        expect(await revisions({ fromRevision: 5 })).toEqual([]);
      });

      it('reads a missing stream as an empty array', async () => {
        expect(await store.readStream(`${newCategory()}-missing`)).toEqual([]);
      });
    });

    describe('read all', () => {
      it('reads every stream in global order, after an exclusive position', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-a`, [newEvent('A1')]);
        await store.append(`${category}-b`, [newEvent('B1'), newEvent('B2')]);
        await store.append(`${category}-a`, [newEvent('A2')]);

        const all = await store.readAll({ fromPosition: before, filter: { streamPrefixes: [`${category}-`] } });
        expect(all.map((event) => event.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
        const positions = all.map((event) => event.position);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
        expect(new Set(positions).size).toBe(positions.length);

        const afterB1 = await store.readAll({ fromPosition: all[1].position, filter: { streamPrefixes: [`${category}-`] } });
        expect(afterB1.map((event) => event.type)).toEqual(['B2', 'A2']);
      });

      it('reads from the start when fromPosition is omitted', async () => {
        const stream = `${newCategory()}-1`;
        const { position } = await store.append(stream, [newEvent('Opened')]);
        const all = await store.readAll();
        expect(all.find((event) => event.stream === stream)?.position).toBe(position);
      });

      it('filters by stream prefix, by event type, and by both', async () => {
        const category = newCategory();
        const other = newCategory();
        await store.append(`${category}-1`, [newEvent('Kept'), newEvent('Skipped')]);
        await store.append(`${other}-1`, [newEvent('Kept')]);
        await store.append(`${category}-2`, [newEvent('Kept')]);

        const read = async (filter: { streamPrefixes?: string[]; eventTypes?: string[] }): Promise<string[]> =>
          (await store.readAll({ filter })).map((event) => `${event.stream}:${event.type}`);
        expect(await read({ streamPrefixes: [`${category}-`] })).toEqual([
          `${category}-1:Kept`,
          `${category}-1:Skipped`,
          `${category}-2:Kept`,
        ]);
        expect(await read({ streamPrefixes: [`${category}-`, `${other}-`], eventTypes: ['Kept'] })).toEqual([
          `${category}-1:Kept`,
          `${other}-1:Kept`,
          `${category}-2:Kept`,
        ]);
        expect(await read({ streamPrefixes: [`${category}-`], eventTypes: ['Skipped'] })).toEqual([`${category}-1:Skipped`]);
        const byType = await read({ eventTypes: ['Skipped'] });
        expect(byType).toContain(`${category}-1:Skipped`);
        expect(byType.every((entry) => entry.endsWith(':Skipped'))).toBe(true);
      });

      it('returns at most maxCount events, counted after filtering', async () => {
        const category = newCategory();
        await store.append(`${newCategory()}-noise`, [newEvent('Noise')]);
        await store.append(`${category}-1`, [1, 2, 3].map((n) => newEvent('Counted', { n })));

        const events = await store.readAll({ filter: { streamPrefixes: [category] }, maxCount: 2 });
        expect(events.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
      });

      it('returns the events after a position inside one multi-event append', async () => {
        const category = newCategory();
        const result = await store.append(`${category}-1`, [newEvent('First'), newEvent('Second'), newEvent('Third')]);
        const [first] = await store.readStream(`${category}-1`);

        const rest = await store.readAll({ fromPosition: first.position, filter: { streamPrefixes: [category] } });
        expect(rest.map((event) => event.type)).toEqual(['Second', 'Third']);
        expect(rest[1].position).toBe(result.position);
      });

      it('reports the newest event position as the head, with nothing after it', async () => {
        const { position } = await store.append(`${newCategory()}-1`, [newEvent('Opened'), newEvent('Renamed')]);
        const head = await store.headPosition();
        expect(head).toBe(position);
        expect(await store.readAll({ fromPosition: head })).toEqual([]);
      });
    });

    describe('subscribe to all', () => {
      it('delivers stored events, then live ones, in order and filtered', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-1`, [newEvent('Stored1'), newEvent('Stored2')]);
        await store.append(`${newCategory()}-1`, [newEvent('OtherCategory')]);

        const recorder = record({ fromPosition: before, filter: { streamPrefixes: [`${category}-`] } });
        await recorder.eventCount(2);
        await store.append(`${category}-2`, [newEvent('Live1')]);
        await store.append(`${newCategory()}-1`, [newEvent('OtherCategory')]);
        await store.append(`${category}-1`, [newEvent('Live2')]);
        await recorder.eventCount(4);

        expect(recorder.events.map((event) => event.type)).toEqual(['Stored1', 'Stored2', 'Live1', 'Live2']);
        expect(recorder.events.map((event) => event.revision)).toEqual([0, 1, 0, 2]);
        const positions = recorder.events.map((event) => event.position);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
        expect(recorder.dropped).toBeUndefined();
      });

      it('filters a subscription by event type and starts from the beginning without fromPosition', async () => {
        const category = newCategory();
        const wanted = `Wanted${category}`;
        await store.append(`${category}-1`, [newEvent(wanted, { n: 1 }), newEvent('Unwanted')]);

        const recorder = record({ filter: { eventTypes: [wanted] } });
        await recorder.eventCount(1);
        await store.append(`${category}-1`, [newEvent('Unwanted'), newEvent(wanted, { n: 2 })]);
        await recorder.eventCount(2);

        expect(recorder.events.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
      });

      it('calls onCaughtUp after the catch-up, and again at the live edge even when nothing matched', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-1`, [newEvent('Opened')]);
        const stored = await store.append(`${category}-1`, [newEvent('Renamed')]);

        const recorder = record({ fromPosition: before, filter: { streamPrefixes: [`${category}-`] } });
        await recorder.caughtUpTo(stored.position);
        const first = recorder.caughtUp[0];
        expect(first.position).toBeGreaterThanOrEqual(stored.position);
        expect(first.delivered).toBe(2);

        const unmatched = await store.append(`${newCategory()}-1`, [newEvent('Elsewhere')]);
        await recorder.caughtUpTo(unmatched.position);
        expect(recorder.events).toHaveLength(2);
      });

      // Checkpoints are taken from onCaughtUp as well as from events, and EventStoreDB accepts only positions it
      // handed out: resuming from a caught-up position must be one of those.
      it('resumes a filtered subscription from a position onCaughtUp reported, with what came after it', async () => {
        const category = newCategory();
        const filter = { streamPrefixes: [`${category}-`] };
        const before = await store.headPosition();
        await store.append(`${category}-1`, [newEvent('Opened')]);
        const unmatched = await store.append(`${newCategory()}-1`, [newEvent('Elsewhere')]);
        const first = record({ fromPosition: before, filter });
        await first.caughtUpTo(unmatched.position);
        const resumeAt = first.caughtUp[first.caughtUp.length - 1].position;

        await store.append(`${category}-1`, [newEvent('Renamed')]);
        const resumed = record({ fromPosition: resumeAt, filter });
        await resumed.eventCount(1);
        await settle();
        expect(resumed.dropped).toBeUndefined();
        expect(resumed.events.map((event) => event.type)).toEqual(['Renamed']);
      });

      it('drops the subscription with the error a handler threw and delivers nothing more', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-1`, [newEvent('Poison')]);
        const failure = new Error('handler failed');
        let calls = 0;
        const failing = new Recorder();
        subscribe(store, {
          fromPosition: before,
          filter: { streamPrefixes: [`${category}-`] },
          onEvent: async () => {
            calls += 1;
            throw failure;
          },
          onDropped: failing.onDropped,
        });
        await failing.until(() => failing.dropped !== undefined, 'onDropped');
        expect(failing.dropped).toBe(failure);

        await store.append(`${category}-1`, [newEvent('Later')]);
        const witness = record({ fromPosition: before, filter: { streamPrefixes: [`${category}-`] } });
        await witness.eventCount(2);
        await settle();
        expect(calls).toBe(1);
      });

      it('continues without gaps or duplicates when resubscribed from the last handled position', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-1`, [1, 2, 3].map((n) => newEvent('Counted', { n })));
        await store.append(`${category}-2`, [4, 5].map((n) => newEvent('Counted', { n })));
        const filter = { streamPrefixes: [`${category}-`] };

        const handled: RecordedEvent[] = [];
        const firstRun = new Recorder();
        subscribe(store, {
          fromPosition: before,
          filter,
          onEvent: async (event) => {
            if (handled.length === 2) throw new Error('transient failure');
            handled.push(event);
          },
          onDropped: firstRun.onDropped,
        });
        await firstRun.until(() => firstRun.dropped !== undefined, 'onDropped');

        const secondRun = record({ fromPosition: handled[handled.length - 1].position, filter });
        await secondRun.eventCount(3);
        await store.append(`${category}-1`, [newEvent('Counted', { n: 6 })]);
        await secondRun.eventCount(4);

        const all = [...handled, ...secondRun.events];
        expect(all.map((event) => (event.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
      });

      it('stop() resolves once the running handler has finished, and nothing is delivered afterwards', async () => {
        const category = newCategory();
        const before = await store.headPosition();
        await store.append(`${category}-1`, [newEvent('Slow')]);
        const steps: string[] = [];
        const started = new Recorder();
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const subscription = subscribe(store, {
          fromPosition: before,
          filter: { streamPrefixes: [`${category}-`] },
          onEvent: async () => {
            steps.push('handler started');
            started.changed();
            await gate;
            steps.push('handler finished');
          },
        });
        await started.until(() => steps.length > 0, 'the handler to start');

        const stopped = subscription.stop().then(() => steps.push('stopped'));
        await settle();
        expect(steps).toEqual(['handler started']);
        release();
        await stopped;
        expect(steps).toEqual(['handler started', 'handler finished', 'stopped']);

        await store.append(`${category}-1`, [newEvent('AfterStop')]);
        const witness = record({ fromPosition: before, filter: { streamPrefixes: [`${category}-`] } });
        await witness.eventCount(2);
        await settle();
        expect(steps.filter((step) => step === 'handler started')).toHaveLength(1);
      });

      it('sees events appended through a second instance', async () => {
        const category = newCategory();
        const second = await openSecond();
        const recorder = record({ filter: { streamPrefixes: [`${category}-`] } });
        await recorder.until(() => recorder.caughtUp.length > 0, 'the catch-up');

        const { position } = await second.append(`${category}-1`, [newEvent('FromElsewhere')]);
        await recorder.eventCount(1);
        expect(recorder.events[0]).toMatchObject({ type: 'FromElsewhere', position });
        expect(await store.readStream(`${category}-1`)).toHaveLength(1);
      });
    });

    describe('optimistic concurrency between writers', () => {
      it('lets exactly one of two concurrent appends at the same revision win', async () => {
        const stream = `${newCategory()}-1`;
        const second = await openSecond();
        await store.append(stream, [newEvent('Opened')]);

        const outcomes = await Promise.allSettled([
          store.append(stream, [newEvent('FromFirst')], { expectedRevision: 0 }),
          second.append(stream, [newEvent('FromSecond')], { expectedRevision: 0 }),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const [lost] = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(lost.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(lost.reason).toMatchObject({ expected: 0, actual: 1 });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('lets exactly one of two concurrent "no_stream" appends create the stream (a uniqueness reservation)', async () => {
        const stream = `${newCategory()}-reservation`;
        const second = await openSecond();

        const outcomes = await Promise.allSettled([
          store.append(stream, [newEvent('Reserved', { by: 'first' })], { expectedRevision: 'no_stream' }),
          second.append(stream, [newEvent('Reserved', { by: 'second' })], { expectedRevision: 'no_stream' }),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const [lost] = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(lost.reason).toMatchObject({ expected: 'no_stream', actual: 0 });
        expect(await store.readStream(stream)).toHaveLength(1);
      });
    });

    // An adapter may commit the appends made together in one transaction (group commit): each still stands alone.
    describe('concurrent appends through one instance', () => {
      it('lets exactly one of many concurrent appends at the same revision win', async () => {
        const stream = `${newCategory()}-1`;
        await store.append(stream, [newEvent('Opened')]);

        const outcomes = await Promise.allSettled(
          Array.from({ length: 5 }, (_, writer) => store.append(stream, [newEvent('Written', { writer })], { expectedRevision: 0 })),
        );
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const outcome of outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')) {
          expect(outcome.reason).toBeInstanceOf(WrongExpectedRevisionError);
          expect(outcome.reason).toMatchObject({ expected: 0, actual: 1 });
        }
        expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['Opened', 'Written']);
      });

      it('commits the other appends made together with one that conflicts, and nothing of the conflicting one', async () => {
        const category = newCategory();
        await store.append(`${category}-taken`, [newEvent('Opened')]);

        const [before, conflicting, after] = await Promise.allSettled([
          store.append(`${category}-a`, [newEvent('First'), newEvent('Second')], { expectedRevision: 'no_stream' }),
          store.append(`${category}-taken`, [newEvent('Lost'), newEvent('AlsoLost')], { expectedRevision: 'no_stream' }),
          store.append(`${category}-b`, [newEvent('Third')], { expectedRevision: 'no_stream' }),
        ]);
        expect(before.status).toBe('fulfilled');
        expect(after.status).toBe('fulfilled');
        expect(conflicting.status).toBe('rejected');
        expect((conflicting as PromiseRejectedResult).reason).toMatchObject({ stream: `${category}-taken`, expected: 'no_stream', actual: 0 });
        expect((await store.readStream(`${category}-taken`)).map((event) => event.type)).toEqual(['Opened']);
        const read = await store.readAll({ filter: { streamPrefixes: [`${category}-`] } });
        expect(read.map((event) => event.type)).toEqual(['Opened', 'First', 'Second', 'Third']);
      });

      it('answers each of many concurrent appends with its own position, and subscribers see them in that order', async () => {
        const category = newCategory();
        const recorder = record({ filter: { streamPrefixes: [`${category}-`] } });
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, n) => store.append(`${category}-${n}`, [newEvent('Written', { n })], { expectedRevision: 'no_stream' })),
        );
        const positions = results.map((result) => result.position);
        expect(new Set(positions).size).toBe(positions.length);

        await recorder.eventCount(results.length);
        const delivered = recorder.events.map((event) => event.position);
        expect(delivered).toEqual([...delivered].sort((a, b) => a - b));
        expect([...delivered].sort((a, b) => a - b)).toEqual([...positions].sort((a, b) => a - b));
        for (const [n, result] of results.entries()) {
          expect(recorder.events.find((event) => event.position === result.position)).toMatchObject({ stream: `${category}-${n}`, data: { n } });
        }
      });
    });
  });
}
