import type { EventStore, RecordedEvent } from '@pss/event-store';
import type { ReadStore } from '@pss/read-store';
import { CHECKPOINT_COLLECTION, type CheckpointDocument, type ProjectionContext } from './projection';
import type { LiveProjection } from './live-projection';

export interface RebuildProgress {
  projection: string;
  processed: number;
  position: number;
  head: number;
}

export interface RebuildResult {
  projection: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  position: number;
}

const PAGE_SIZE = 1000;
const PROGRESS_EVERY_MS = 200;
export const shadowName = (collection: string): string => `${collection}__rebuild`;

/**
 * Rebuilds a projection blue/green while the service runs: replays every event into shadow collections while
 * the live ones keep serving and keep up, then pauses the live reader, replays the last few events, swaps the
 * shadows in and resumes from where the rebuild stopped. Readers never see a half-built read model; killing the
 * process mid-way leaves the live collections untouched (the shadows are dropped on the next rebuild).
 */
export async function rebuildProjection(
  live: LiveProjection,
  eventStore: EventStore,
  readStore: ReadStore,
  onProgress: (progress: RebuildProgress) => void,
  now: () => number = Date.now,
): Promise<RebuildResult> {
  const { projection } = live;
  const collections = Object.keys(projection.collections);
  for (const name of collections) {
    await readStore.drop(shadowName(name));
    await readStore.ensureIndexes(shadowName(name), projection.collections[name]);
  }
  const shadow: ProjectionContext = { collection: (name) => readStore.collection(shadowName(name)) };
  const started = now();
  let processed = 0;
  let position = 0;
  let lastReport = 0;
  let head = await eventStore.headPosition();

  const replayUntilEmpty = async (): Promise<void> => {
    for (;;) {
      const page: RecordedEvent[] = await eventStore.readAll({ fromPosition: position, filter: projection.filter, maxCount: PAGE_SIZE });
      for (const event of page) {
        await projection.handle(event, shadow);
        position = event.position;
        processed += 1;
      }
      if (now() - lastReport >= PROGRESS_EVERY_MS) {
        lastReport = now();
        onProgress({ projection: projection.name, processed, position, head: Math.max(head, position) });
      }
      if (page.length < PAGE_SIZE) return;
    }
  };

  live.state = 'rebuilding';
  await replayUntilEmpty();
  await live.pause();
  head = await eventStore.headPosition();
  await replayUntilEmpty();
  position = Math.max(position, head);
  for (const name of collections) await readStore.rename(shadowName(name), name);
  await readStore
    .collection<CheckpointDocument>(CHECKPOINT_COLLECTION)
    .upsert({ _id: projection.name, position, updated_at: new Date(now()).toISOString() });
  live.resumeFrom(position);
  onProgress({ projection: projection.name, processed, position, head: position });

  const seconds = (now() - started) / 1000;
  return {
    projection: projection.name,
    events: processed,
    seconds,
    eventsPerSecond: seconds > 0 ? Math.round(processed / seconds) : processed,
    position,
  };
}
