import { randomBytes } from 'node:crypto';
import { InvalidFileKeyError, type FileStore } from './file-store.port';

export interface FileStoreUnderTest {
  store: FileStore;
  cleanup(): Promise<void>;
}

const PDF = 'application/pdf';

/** The promises of the FileStore port. Every adapter runs this one suite, each test on an empty store. */
export function fileStoreConformance(name: string, factory: () => Promise<FileStoreUnderTest>): void {
  describe(`${name} file store (conformance)`, () => {
    let files: FileStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store: files, cleanup } = await factory());
    });
    afterEach(() => cleanup());

    it('gives back exactly the bytes and content type it was given', async () => {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.3\n'), randomBytes(4096), Buffer.from([0, 10, 13, 255])]);
      await files.put('reports/org-1/0190f2a4-report.pdf', bytes, PDF);
      const stored = await files.get('reports/org-1/0190f2a4-report.pdf');
      expect(stored?.contentType).toBe(PDF);
      expect(stored?.bytes.equals(bytes)).toBe(true);
    });

    it('keeps files larger than one storage chunk whole, and empty ones empty', async () => {
      const large = randomBytes(600 * 1024 + 17);
      await files.put('large.pdf', large, PDF);
      await files.put('empty.txt', Buffer.alloc(0), 'text/plain; charset=utf-8');
      expect((await files.get('large.pdf'))?.bytes.equals(large)).toBe(true);
      expect(await files.get('empty.txt')).toEqual({ bytes: Buffer.alloc(0), contentType: 'text/plain; charset=utf-8' });
    });

    it('answers null and false for a key it never stored', async () => {
      await files.put('reports/a.pdf', Buffer.from('a'), PDF);
      expect(await files.get('reports/b.pdf')).toBeNull();
      expect(await files.get('reports/a.pdf/inner')).toBeNull();
      expect(await files.has('reports/b.pdf')).toBe(false);
      expect(await files.has('reports/a.pdf')).toBe(true);
      expect(await files.has('reports')).toBe(false);
    });

    it('replaces a file put again under the same key', async () => {
      await files.put('reports/a.pdf', Buffer.from('first'), PDF);
      await files.put('reports/a.pdf', Buffer.from('second, longer'), 'application/octet-stream');
      expect(await files.get('reports/a.pdf')).toEqual({ bytes: Buffer.from('second, longer'), contentType: 'application/octet-stream' });
    });

    it('deletes a file, and deletes nothing without failing', async () => {
      await files.put('reports/bodies/a.json', Buffer.from('{}'), 'application/json');
      await files.put('reports/bodies/b.json', Buffer.from('{}'), 'application/json');
      await files.delete('reports/bodies/a.json');
      await files.delete('reports/bodies/a.json');
      await files.delete('reports/bodies/never.json');
      expect(await files.get('reports/bodies/a.json')).toBeNull();
      expect(await files.has('reports/bodies/a.json')).toBe(false);
      expect(await files.has('reports/bodies/b.json')).toBe(true);
    });

    it('keeps every file of a burst of concurrent puts', async () => {
      const keys = Array.from({ length: 8 }, (_, i) => `reports/org-${i % 2}/${i}.pdf`);
      await Promise.all(keys.map((key) => files.put(key, Buffer.from(key), PDF)));
      for (const key of keys) expect((await files.get(key))?.bytes.toString()).toBe(key);
    });

    it.each([
      ['a parent folder', '../secret.key'],
      ['a parent folder inside', 'reports/../../secret.key'],
      ['an absolute path', '/etc/passwd'],
      ['a backslash', 'reports\\..\\x'],
      ['a hidden name', 'reports/.a.tmp'],
      ['an empty segment', 'reports//a.pdf'],
      ['a trailing slash', 'reports/'],
      ['nothing', ''],
      ['a NUL byte', 'a\u0000.pdf'],
      ['a space', 'my report.pdf'],
      ['more than 512 characters', `${'a'.repeat(509)}.pdf`],
    ])('refuses a key with %s on every operation', async (_case, key) => {
      await expect(files.put(key, Buffer.from('x'), PDF)).rejects.toThrow(InvalidFileKeyError);
      await expect(files.get(key)).rejects.toThrow(InvalidFileKeyError);
      await expect(files.has(key)).rejects.toThrow(InvalidFileKeyError);
      await expect(files.delete(key)).rejects.toThrow(InvalidFileKeyError);
    });

    it('refuses a malformed content type and stores nothing', async () => {
      await expect(files.put('a.pdf', Buffer.from('x'), 'pdf\r\nX-Injected: 1')).rejects.toThrow(/content type/);
      expect(await files.has('a.pdf')).toBe(false);
    });
  });
}
