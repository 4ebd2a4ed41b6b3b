import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '@pss/config';
import {
  EventStoreDbEventStore,
  SqliteEventStore,
  type CheckpointStore,
  type EventStore,
} from '@pss/event-store';
import { DataDirFileStore, GridFsFileStore, type FileStore } from '@pss/files';
import { MemoryReadStore, MongoReadStore, type ReadStore } from '@pss/read-store';
import type { Clock } from '@pss/kernel';
import { ReadStoreCheckpointStore } from './read-store-checkpoint-store';

/** The one place where configuration picks the adapters behind the ports. */
export interface Adapters {
  eventStore: EventStore;
  readStore: ReadStore;
  checkpoints: CheckpointStore;
  files: FileStore;
  /** Embedded mode: where the in-memory read models are snapshotted, so a start-up need not replay every event. */
  readModelSnapshot?: string;
}

export async function openAdapters(config: ServiceConfig, clock: Clock): Promise<Adapters> {
  if (config.mode === 'embedded') {
    mkdirSync(config.dataDir, { recursive: true });
    const eventStore = SqliteEventStore.open(join(config.dataDir, 'events.sqlite'), { clock });
    const files = new DataDirFileStore(join(config.dataDir, 'files'));
    // File times are wall-clock times, whatever clock the service runs on.
    await files.removeAbandonedWrites(Date.now());
    const readModelSnapshot = join(config.dataDir, 'read-models.snapshot');
    return { eventStore, readStore: new MemoryReadStore(), checkpoints: eventStore.checkpoints(), files, readModelSnapshot };
  }
  const readStore = await MongoReadStore.connect(config.mongoUrl, config.mongoDatabase);
  return {
    eventStore: EventStoreDbEventStore.connect(config.eventStoreUrl, { clock }),
    readStore,
    checkpoints: new ReadStoreCheckpointStore(readStore),
    files: await GridFsFileStore.connect(config.mongoUrl, config.mongoDatabase),
  };
}
