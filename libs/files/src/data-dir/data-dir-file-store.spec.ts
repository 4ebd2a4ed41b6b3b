import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStoreConformance } from '../file-store.conformance';
import { DataDirFileStore } from './data-dir-file-store';

fileStoreConformance('data directory', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pss-files-'));
  return { store: new DataDirFileStore(join(root, 'files')), cleanup: async () => rmSync(root, { recursive: true, force: true }) };
});

describe('data directory file store', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'pss-files-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes one file per key inside its folder, with no temporary file left behind', async () => {
    const store = new DataDirFileStore(join(root, 'files'));
    await store.put('reports/org-1/r.pdf', Buffer.from('%PDF'), 'application/pdf');
    expect(readdirSync(join(root, 'files', 'reports', 'org-1'))).toEqual(['r.pdf']);
    expect(readFileSync(join(root, 'files', 'reports', 'org-1', 'r.pdf'), 'utf8')).toBe('{"content_type":"application/pdf"}\n%PDF');
    expect(readdirSync(root)).toEqual(['files']);
  });

  it('fails the put when the folder cannot be written, leaving nothing half-written', async () => {
    writeFileSync(join(root, 'files'), 'not a folder');
    await expect(new DataDirFileStore(join(root, 'files')).put('r.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow();
    expect(readdirSync(root)).toEqual(['files']);
  });

  it('removes at start the half-written file of a write a crash cut short, not one being written now', async () => {
    const folder = join(root, 'files', 'reports', 'snap-1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '.0123456789abcdef.tmp'), '{"content_type":"application/json"}\n{"meta":');
    writeFileSync(join(folder, '.fedcba9876543210.tmp'), 'being written');
    const crashed = new Date(Date.now() - 60 * 60_000);
    utimesSync(join(folder, '.0123456789abcdef.tmp'), crashed, crashed);
    const store = new DataDirFileStore(join(root, 'files'));
    await store.put('reports/snap-1/data.json', Buffer.from('{}'), 'application/json');

    expect(await store.removeAbandonedWrites(Date.now())).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['.fedcba9876543210.tmp', 'data.json']);
    expect(await new DataDirFileStore(join(root, 'nothing-yet')).removeAbandonedWrites(Date.now())).toBe(0);
  });
});
