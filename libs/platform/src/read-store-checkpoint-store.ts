import type { CheckpointStore } from '@pss/event-store';
import type { Document, ReadStore } from '@pss/read-store';

interface PublisherCheckpoint extends Document {
  position: number;
}

/** Durable checkpoints in the read store: right in distributed mode, where the read store is MongoDB. */
export class ReadStoreCheckpointStore implements CheckpointStore {
  constructor(private readonly readStore: ReadStore) {}

  private get collection() {
    return this.readStore.collection<PublisherCheckpoint>('publisher_checkpoints');
  }

  async load(name: string): Promise<number | undefined> {
    return (await this.collection.findOne({ _id: name }))?.position;
  }

  async save(name: string, position: number): Promise<void> {
    await this.collection.upsert({ _id: name, position });
  }
}
