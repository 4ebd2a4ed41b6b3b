import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@pss/event-store';
import { FILE_STORE, type FileStore } from '@pss/files';
import { chainBreaks, type ChainBreak, type ChainLink } from './evidence-chain';
import { evidenceChainStream, type SnapshotEvent } from './snapshot.decider';

export interface ChainReport {
  store_id: string;
  snapshots: number;
  head_sha256: string | null;
  ok: boolean;
  breaks: ChainBreak[];
}

/**
 * `reports verify-chain`: a store's evidence chain as recorded (its stream, not the read model) checked the way
 * an assessor checks it through the API, with every snapshot's stored data hashed again.
 */
@Injectable()
export class ChainAudit {
  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  async verify(storeId: string): Promise<ChainReport> {
    const chain = (await this.eventStore.readStream(evidenceChainStream(storeId))) as Array<RecordedEvent<SnapshotEvent['data']>>;
    const links: ChainLink[] = [];
    // One file at a time: a year of weekly snapshots of a large store is gigabytes, never held at once.
    for (const { data, revision } of chain) {
      const file = await this.files.get(data.dataKey);
      links.push({
        snapshotId: data.snapshotId,
        sequence: data.sequence ?? revision + 1,
        sha256: data.sha256,
        previousSha256: data.previousSha256,
        storedSha256: file ? createHash('sha256').update(file.bytes).digest('hex') : null,
      });
    }
    const breaks = chainBreaks(links);
    return { store_id: storeId, snapshots: links.length, head_sha256: links[links.length - 1]?.sha256 ?? null, ok: breaks.length === 0, breaks };
  }
}
