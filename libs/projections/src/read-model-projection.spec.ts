import { Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, NestFactory } from '@nestjs/core';
import { canHandle } from '@pss/event-store';
import { recorded, replayedTwice } from '@pss/testkit';
import { applyOnce } from './apply-once';
import { PROJECTION_METADATA, readModelProjection } from './read-model-projection';
import { projectionFingerprint } from './snapshots/fingerprint';

type Counted = { type: 'Counted'; data: { by: number } };
const isCounted = canHandle<Counted>({ Counted: true });

class CounterProjection extends readModelProjection({
  name: 'counters',
  streamPrefixes: ['counter-'],
  collections: { counters: [{ key: { total: -1 } }] },
  canHandle: isCounted,
  async evolve(event, context) {
    await applyOnce(context.collection('counters'), event.stream, event, { $inc: { total: event.data.by } }, { upsert: true });
  },
}) {}

/** The same definition but for what `evolve` does. */
class DoubledCounterProjection extends readModelProjection({
  name: 'counters',
  streamPrefixes: ['counter-'],
  collections: { counters: [{ key: { total: -1 } }] },
  canHandle: isCounted,
  async evolve(event, context) {
    await applyOnce(context.collection('counters'), event.stream, event, { $inc: { total: 2 * event.data.by } }, { upsert: true });
  },
}) {}

describe('readModelProjection', () => {
  it('evolves its read model from the events it can handle and passes over the others', async () => {
    const events = [
      recorded('counter-a', 'Counted', { by: 2 }),
      recorded('counter-a', 'Reset', {}),
      recorded('counter-a', 'Counted', { by: 3 }),
    ];
    const twice = await replayedTwice(CounterProjection, events);
    expect(twice.counters).toEqual([expect.objectContaining({ _id: 'counter-a', total: 5 })]);
  });

  it('reads the streams it names, narrowed to event types only when it says so', () => {
    const projection = new CounterProjection();
    expect(projection).toMatchObject({ name: 'counters', filter: { streamPrefixes: ['counter-'] }, collections: { counters: [{ key: { total: -1 } }] } });
    expect(projection.filter).not.toHaveProperty('eventTypes');
    class Narrowed extends readModelProjection({
      name: 'counted',
      streamPrefixes: ['counter-'],
      eventTypes: ['Counted'],
      collections: {},
      canHandle: isCounted,
      evolve: async () => undefined,
    }) {}
    expect(new Narrowed().filter).toEqual({ streamPrefixes: ['counter-'], eventTypes: ['Counted'] });
  });

  it('is a Nest provider the platform finds as a projection', async () => {
    @Module({ imports: [DiscoveryModule], providers: [CounterProjection] })
    class CountersModule {}
    const app = await NestFactory.createApplicationContext(CountersModule, { logger: false });
    try {
      const found = app
        .get(DiscoveryService)
        .getProviders()
        .filter((wrapper) => wrapper.metatype && Reflect.getMetadata(PROJECTION_METADATA, wrapper.metatype))
        .map((wrapper) => wrapper.instance);
      expect(found).toEqual([app.get(CounterProjection)]);
      expect(found[0]).toBeInstanceOf(CounterProjection);
    } finally {
      await app.close();
    }
  });

  it('changes its snapshot fingerprint when only evolve changes, so a snapshot made by the old code is rebuilt', () => {
    expect(projectionFingerprint(new CounterProjection())).toBe(projectionFingerprint(new CounterProjection()));
    expect(projectionFingerprint(new DoubledCounterProjection())).not.toBe(projectionFingerprint(new CounterProjection()));
  });
});
