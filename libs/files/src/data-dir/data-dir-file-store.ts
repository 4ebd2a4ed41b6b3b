import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertContentType, assertFileKey, type FileStore, type StoredFile } from '../file-store.port';
import { renameDurably } from './durable-rename';

/**
 * The embedded adapter: one file per key under the files folder of the data directory. The content type travels
 * in the file itself, as a first line `{"content_type": …}` before the bytes, so a file and its type are written
 * by one atomic rename (a side file would be a second write that can be lost on its own).
 */
const TEMPORARY_NAME = /^\.[0-9a-f]{16}\.tmp$/;
/** A write takes seconds at most; a temporary file this old belongs to no running write. */
const ABANDONED_WRITE_MS = 10 * 60_000;

export class DataDirFileStore implements FileStore {
  constructor(private readonly directory: string) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertFileKey(key);
    assertContentType(contentType);
    const path = this.pathOf(key);
    const folder = dirname(path);
    // Created on demand, not at start: a data directory made read-only later fails the write, not the service.
    await mkdir(folder, { recursive: true });
    // Hidden name: keys never start with ".", so a temporary file is never taken for a file by get().
    const temporary = join(folder, `.${randomBytes(8).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(Buffer.concat([header(contentType), bytes]));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await renameDurably(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Removes the temporary files of writes a crash cut short (a report's data half written), at start. Only those
   * older than `olderThanMs`: another process on the same data directory may be writing one now.
   */
  async removeAbandonedWrites(now: number, olderThanMs = ABANDONED_WRITE_MS): Promise<number> {
    let removed = 0;
    const entries = await readdir(this.directory, { recursive: true, withFileTypes: true }).catch((error) => (isMissing(error) ? [] : Promise.reject(error)));
    for (const entry of entries) {
      if (!entry.isFile() || !TEMPORARY_NAME.test(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      if ((await stat(path)).mtimeMs > now - olderThanMs) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  async get(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    let stored: Buffer;
    try {
      stored = await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const end = stored.indexOf(0x0a);
    const { content_type: contentType } = JSON.parse(stored.subarray(0, end).toString('utf8')) as { content_type: string };
    return { bytes: stored.subarray(end + 1), contentType };
  }

  async has(key: string): Promise<boolean> {
    assertFileKey(key);
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    await rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {}

  /** Safe by construction: assertFileKey admits no `..`, no absolute path and no backslash. */
  private pathOf(key: string): string {
    return join(this.directory, ...key.split('/'));
  }
}

const header = (contentType: string): Buffer => Buffer.from(`${JSON.stringify({ content_type: contentType })}\n`, 'utf8');

const isMissing = (error: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
