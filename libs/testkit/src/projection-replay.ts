import type { RecordedEvent } from '@pss/event-store';
import type { Projection } from '@pss/projections';
import { MemoryReadStore, type AnyDocument } from '@pss/read-store';

let position = 0;

/** A stored event as the projection runner hands it over. */
export function recorded(stream: string, type: string, data: unknown, createdAt = '2026-11-23T09:00:00.000Z'): RecordedEvent {
  position += 1;
  return { id: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`, stream, revision: 0, position, type, data, metadata: {}, createdAt };
}

type EventData<E extends { type: string; data: unknown }, T extends E['type']> = Extract<E, { type: T }>['data'];

/** `recorded` typed by one aggregate's events: `stored(id, type, data)` on its stream `<prefix>-<id>`, the data as its decider writes it. */
export function storedEventsOf<E extends { type: string; data: unknown }>(streamPrefix: string) {
  return <T extends E['type']>(id: string, type: T, data: EventData<E, T>): RecordedEvent => recorded(`${streamPrefix}-${id}`, type, data);
}

/** The same for a spec about one stream: `stored(type, data)`. */
export function storedEventsOn<E extends { type: string; data: unknown }>(stream: string) {
  return <T extends E['type']>(type: T, data: EventData<E, T>): RecordedEvent => recorded(stream, type, data);
}

/** The projection's collections after handling `events` once, or `twice`: each twice in a row, then all again (a restart). */
export async function project(projection: Projection, events: RecordedEvent[], times: 'once' | 'twice'): Promise<Record<string, AnyDocument[]>> {
  const store = new MemoryReadStore();
  const context = { collection: <T extends AnyDocument>(name: string) => store.collection<T>(name) };
  for (const event of events) {
    await projection.handle(event, context);
    if (times === 'twice') await projection.handle(event, context);
  }
  if (times === 'twice') for (const event of events) await projection.handle(event, context);
  const collections: Record<string, AnyDocument[]> = {};
  for (const name of Object.keys(projection.collections)) collections[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  return collections;
}

/**
 * The collections after `events` replayed twice (as `project` does), once it has checked they are what handling
 * each event once gives: every projection spec's first claim, that a redelivery changes nothing.
 */
export async function replayedTwice(Projected: new () => Projection, events: RecordedEvent[]): Promise<Record<string, AnyDocument[]>> {
  const twice = await project(new Projected(), events, 'twice');
  expect(twice).toEqual(await project(new Projected(), events, 'once'));
  return twice;
}

/**
 * Emmett's `then(expectDocuments…)` for a projection spec: after `events` replayed twice (`replayedTwice`),
 * `collection` holds exactly these documents in `_id` order, each with at least the fields given.
 */
export async function expectReplayedTwice(
  Projected: new () => Projection,
  events: RecordedEvent[],
  collection: string,
  documents: Array<Record<string, unknown>>,
): Promise<void> {
  expect((await replayedTwice(Projected, events))[collection]).toEqual(documents.map((document) => expect.objectContaining(document)));
}
