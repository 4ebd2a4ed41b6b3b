import { GridFSBucket, MongoClient, type Db, type GridFSFile } from 'mongodb';
import { assertContentType, assertFileKey, type FileStore, type StoredFile } from '../file-store.port';

export const FILES_BUCKET = 'files';

/**
 * The driver's 30 s default server selection would hold a report download that long in a MongoDB outage and then
 * answer 500. Bounded as the read store's client is: the outage surfaces within seconds as
 * MongoServerSelectionError, which the gateway and the bus answer 503 (libs/bus outage.ts). The socket timeout
 * (none by default) ends an operation on a half-open connection; a chunk is 255 KiB, so 60 s is a dead socket.
 */
export const GRIDFS_DRIVER_TIMEOUTS = { serverSelectionTimeoutMS: 3_000, connectTimeoutMS: 3_000, socketTimeoutMS: 60_000 };

/**
 * The distributed adapter: MongoDB GridFS, the key as the file name and the content type in `metadata`.
 * GridFS writes the files document only after the last chunk, so a reader never sees half a file; a put of an
 * existing key uploads a new revision, then removes the older ones (get always reads the newest).
 */
export class GridFsFileStore implements FileStore {
  private readonly bucket: GridFSBucket;

  constructor(
    db: Db,
    private readonly client?: MongoClient,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: FILES_BUCKET });
  }

  /** Its own client: the read store's is private to it, and files are few and large. */
  static async connect(url: string, dbName: string): Promise<GridFsFileStore> {
    const client = await MongoClient.connect(url, GRIDFS_DRIVER_TIMEOUTS);
    return new GridFsFileStore(client.db(dbName), client);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertFileKey(key);
    assertContentType(contentType);
    const upload = this.bucket.openUploadStream(key, { metadata: { contentType } });
    await new Promise<void>((resolve, reject) => {
      upload.once('error', reject);
      upload.once('finish', () => resolve());
      upload.end(bytes);
    });
    // Keep the newest revision only (ours, or a concurrent put's that finished after it).
    const newest = await this.newest(key);
    const revisions = await this.bucket.find({ filename: key }, { projection: { _id: 1 } }).toArray();
    for (const revision of revisions) {
      if (newest && !revision._id.equals(newest._id)) await this.bucket.delete(revision._id).catch(ignoreGone);
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    const file = await this.newest(key);
    if (!file) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of this.bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    } catch (error) {
      // Replaced and removed between the lookup and the read: read the revision that replaced it.
      if (isFileGone(error)) return this.get(key);
      throw error;
    }
    return { bytes: Buffer.concat(chunks), contentType: String(file.metadata?.contentType ?? 'application/octet-stream') };
  }

  async has(key: string): Promise<boolean> {
    assertFileKey(key);
    return (await this.newest(key)) !== null;
  }

  /** Every revision of the key, so a concurrent put's older one cannot come back as the newest. */
  async delete(key: string): Promise<void> {
    assertFileKey(key);
    const revisions = await this.bucket.find({ filename: key }, { projection: { _id: 1 } }).toArray();
    for (const revision of revisions) await this.bucket.delete(revision._id).catch(ignoreGone);
  }

  async close(): Promise<void> {
    await this.client?.close();
  }

  private async newest(key: string): Promise<GridFSFile | null> {
    const [file] = await this.bucket.find({ filename: key }, { sort: { uploadDate: -1, _id: -1 }, limit: 1 }).toArray();
    return file ?? null;
  }
}

const isFileGone = (error: unknown): boolean => /FileNotFound|ChunkIsMissing|File not found/i.test(String((error as Error)?.message ?? error));
const ignoreGone = (error: unknown): void => {
  if (!isFileGone(error)) throw error;
};
