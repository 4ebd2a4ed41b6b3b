import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@pss/event-store';
import { reportDataJson } from '@pss/contracts';
import { FILE_STORE, type FileStore } from '@pss/files';
import { chainBreaks, type ChainBreak, type ChainLink } from './evidence-chain';
import { evidenceChainStream, type SnapshotEvent, type SnapshotRecorded } from './snapshot.decider';

export interface ChainReport {
  store_id: string;
  snapshots: number;
  /** Of them, on-demand snapshots whose data retention removed: on the chain, their data not checked. */
  expired: number;
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
    const expired = new Set(chain.flatMap(({ type, data }) => (type === 'ReportSnapshotExpired' ? [data.snapshotId] : [])));
    const links: ChainLink[] = [];
    // One file at a time: a year of weekly snapshots of a large store is gigabytes, never held at once.
    for (const { type, data, revision } of chain as Array<RecordedEvent<SnapshotRecorded['data']>>) {
      if (type !== 'ReportSnapshotRecorded') continue;
      links.push({
        snapshotId: data.snapshotId,
        sequence: data.sequence ?? revision + 1,
        sha256: data.sha256,
        previousSha256: data.previousSha256,
        storedSha256: await this.storedSha256(data),
        expired: expired.has(data.snapshotId),
      });
    }
    const breaks = chainBreaks(links);
    const head = links[links.length - 1]?.sha256 ?? null;
    return { store_id: storeId, snapshots: links.length, expired: expired.size, head_sha256: head, ok: breaks.length === 0, breaks };
  }

  /** The whole data as every reader serves it (a body with the snapshot's own meta put back), hashed again. */
  private async storedSha256(snapshot: SnapshotRecorded['data']): Promise<string | null> {
    const file = await this.files.get(snapshot.dataKey);
    if (!file) return null;
    if (!snapshot.bodySha256) return createHash('sha256').update(file.bytes).digest('hex');
    const own = { report_id: snapshot.snapshotId, generated_at: snapshot.createdAt };
    return createHash('sha256').update(await reportDataJson(file.bytes.toString('utf8'), own), 'utf8').digest('hex');
  }
}
