import { createHash } from 'node:crypto';
import { open, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { renameDurably } from '@pss/files';
import type { Document } from '@pss/read-store';

/**
 * The snapshot file of the embedded read models:
 *
 *   MAGIC | chunk … chunk | header (JSON) | header length (u32 BE) | SHA-256 of everything before it
 *
 * Each chunk is up to CHUNK_DOCUMENTS documents of one collection in V8's serialization (what structuredClone
 * keeps: dates, undefined, nested values, exactly as stored), so writing can yield between chunks. The header
 * comes last because only then are the chunk lengths known. The digest covers the whole file: a truncated or
 * corrupt file fails it and is never decoded.
 */
const MAGIC = Buffer.from('PSS-READ-MODELS\n');
/** Bumped whenever the layout or the meaning of a field changes: a file of another format is discarded. */
export const SNAPSHOT_FORMAT = 1;
const CHUNK_DOCUMENTS = 5_000;
const DIGEST_BYTES = 32;

export interface CollectionImage {
  name: string;
  docs: readonly Document[];
}

/** One projection's read model at `position`: everything up to it applied, nothing after it. */
export interface ProjectionImage {
  name: string;
  fingerprint: string;
  position: number;
  collections: CollectionImage[];
}

export interface SnapshotHead {
  /** The event store's head when the snapshot was taken, and the id of the event there (null when empty). */
  position: number;
  eventId: string | null;
}

interface SnapshotHeader {
  format: number;
  createdAt: string;
  head: SnapshotHead;
  projections: Array<Omit<ProjectionImage, 'collections'> & { collections: Array<{ name: string; chunks: number[] }> }>;
}

export interface Snapshot {
  createdAt: string;
  head: SnapshotHead;
  projections: ProjectionImage[];
}

/** Why a snapshot file was not used; it is then discarded and the read models are rebuilt from events. */
export class SnapshotRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SnapshotRejected';
  }
}

/**
 * Writes a snapshot atomically: a temporary file beside the target, fsynced, renamed over it, and the directory
 * fsynced, so a crash leaves the old snapshot or the new one, never half of one. `pause` runs between chunks
 * (the caller yields to requests there).
 */
export async function writeSnapshot(file: string, snapshot: Snapshot, pause: () => Promise<void>): Promise<number> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  const digest = createHash('sha256');
  let bytes = 0;
  const append = async (buffer: Buffer): Promise<void> => {
    await handle.write(buffer);
    digest.update(buffer);
    bytes += buffer.length;
  };
  try {
    await append(MAGIC);
    const header: SnapshotHeader = { format: SNAPSHOT_FORMAT, createdAt: snapshot.createdAt, head: snapshot.head, projections: [] };
    for (const projection of snapshot.projections) {
      const collections: Array<{ name: string; chunks: number[] }> = [];
      for (const collection of projection.collections) {
        const chunks: number[] = [];
        for (let start = 0; start < collection.docs.length; start += CHUNK_DOCUMENTS) {
          const chunk = serialize(collection.docs.slice(start, start + CHUNK_DOCUMENTS));
          await append(chunk);
          chunks.push(chunk.length);
          await pause();
        }
        collections.push({ name: collection.name, chunks });
      }
      header.projections.push({ name: projection.name, fingerprint: projection.fingerprint, position: projection.position, collections });
    }
    const headerBytes = Buffer.from(JSON.stringify(header));
    const headerLength = Buffer.alloc(4);
    headerLength.writeUInt32BE(headerBytes.length);
    await append(headerBytes);
    await append(headerLength);
    await handle.write(digest.digest());
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await renameDurably(temporary, file);
  return bytes + DIGEST_BYTES;
}

/** The snapshot in `file`, null when there is none; SnapshotRejected when it cannot be trusted. */
export async function readSnapshot(file: string): Promise<Snapshot | null> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (content.length < MAGIC.length + 4 + DIGEST_BYTES || !content.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotRejected('not a read-model snapshot (no header)');
  }
  const end = content.length - DIGEST_BYTES;
  const digest = createHash('sha256').update(content.subarray(0, end)).digest();
  if (!digest.equals(content.subarray(end))) throw new SnapshotRejected('checksum mismatch: the file is truncated or corrupt');
  const headerLength = content.readUInt32BE(end - 4);
  const header = JSON.parse(content.subarray(end - 4 - headerLength, end - 4).toString('utf8')) as SnapshotHeader;
  if (header.format !== SNAPSHOT_FORMAT) throw new SnapshotRejected(`format ${String(header.format)}, this version reads ${SNAPSHOT_FORMAT}`);
  let offset = MAGIC.length;
  const projections = header.projections.map((projection) => ({
    ...projection,
    collections: projection.collections.map(({ name, chunks }) => {
      const docs: Document[] = [];
      for (const length of chunks) {
        for (const doc of deserialize(content.subarray(offset, offset + length)) as Document[]) docs.push(doc);
        offset += length;
      }
      return { name, docs };
    }),
  }));
  return { createdAt: header.createdAt, head: header.head, projections };
}

/** Temporary files of writes that never finished (the process was killed mid-write): they are never read. */
export async function removeUnfinishedWrites(file: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) await unlink(join(dirname(file), name)).catch(() => undefined);
  }
}
