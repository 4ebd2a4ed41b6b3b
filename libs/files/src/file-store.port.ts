/**
 * The files port: immutable-by-convention blobs (PDF reports) addressed by a key such as
 * `reports/<org id>/<snapshot id>.pdf`. Adapters: files under the data directory (embedded mode) and MongoDB
 * GridFS (distributed mode); both pass the one conformance suite in `file-store.conformance.ts`.
 */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

export interface FileStore {
  /** Stores the bytes under the key, replacing what was there; a reader sees the old file or the new, never half. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under the key. */
  get(key: string): Promise<StoredFile | null>;
  has(key: string): Promise<boolean>;
  /** Removes the file under the key; nothing happens when there is none (a retention run repeated after a crash). */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export const FILE_STORE = Symbol('FileStore');

export const MAX_FILE_KEY_LENGTH = 512;
/**
 * Segments start with a letter or digit (no `.`/`..`, no hidden names, which the data-directory adapter keeps for
 * its temporary files) and hold letters, digits, `.`, `_` and `-` only: a key can never leave the files folder,
 * and it is the same string on a file system and in GridFS.
 */
export const FILE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const CONTENT_TYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+-]+)*$/;

export class InvalidFileKeyError extends Error {
  constructor(key: string) {
    super(`invalid file key ${JSON.stringify(key.slice(0, 80))}: letters, digits, ".", "_" and "-" in "/"-separated segments that start with a letter or digit`);
    this.name = 'InvalidFileKeyError';
  }
}

export function isFileKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= MAX_FILE_KEY_LENGTH && FILE_KEY_PATTERN.test(key);
}

/** Both adapters refuse the same keys and content types, before anything is read or written. */
export function assertFileKey(key: string): void {
  if (!isFileKey(key)) throw new InvalidFileKeyError(String(key));
}

export function assertContentType(contentType: string): void {
  if (!CONTENT_TYPE_PATTERN.test(contentType)) throw new Error(`invalid content type ${JSON.stringify(contentType)}`);
}
