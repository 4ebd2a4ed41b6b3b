import { createHash } from 'node:crypto';
import { ManualClock } from '@pss/testkit';
import { fileSigningKey, REPORT_FILES_PATH, signFileUrl, verifyFileUrl, type FileUrlQuery } from './signed-url';
import { reportFileLocation } from './report-file-links';

const secret = Buffer.from('ab'.repeat(32), 'hex');
const key = fileSigningKey(secret);
const file = {
  key: 'reports/0193a5b0-0000-7000-8000-0000000000aa/0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d.pdf',
  sha256: createHash('sha256').update('%PDF-1.3 report').digest('hex'),
  fileName: 'pci-report_loja.com.br_20261116-20261123.pdf',
};
const HOUR_MS = 60 * 60 * 1000;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The base64url character that decodes to the same 4 bits as `character` in the last place of 32 bytes. */
const padBitTwin = (character: string): string => BASE64URL[BASE64URL.indexOf(character) ^ 1];

describe('signed file links', () => {
  let clock: ManualClock;
  let query: FileUrlQuery;
  beforeEach(() => {
    clock = new ManualClock('2026-11-23T12:00:00.000Z');
    query = signFileUrl(key, file, clock.now());
  });

  it('opens the file it was made for until one hour has passed, and no longer', () => {
    expect(verifyFileUrl(key, file.key, query, clock.now())).toEqual({
      valid: true,
      sha256: file.sha256,
      fileName: file.fileName,
      expiresAt: new Date('2026-11-23T13:00:00.000Z'),
    });
    clock.advance(HOUR_MS - 1000);
    expect(verifyFileUrl(key, file.key, query, clock.now()).valid).toBe(true);
    clock.advance(1000);
    expect(verifyFileUrl(key, file.key, query, clock.now())).toEqual({ valid: false, reason: 'expired' });
  });

  it.each<[string, (q: FileUrlQuery) => Partial<FileUrlQuery>]>([
    ['a later expiry', (q) => ({ ...q, expires: String(Number(q.expires) + 3600) })],
    ['an earlier expiry', (q) => ({ ...q, expires: String(Number(q.expires) - 1) })],
    ['another file digest', (q) => ({ ...q, sha256: createHash('sha256').update('another file').digest('hex') })],
    ['another file name', (q) => ({ ...q, name: 'invoice.pdf' })],
    ['one character of the signature changed', (q) => ({ ...q, signature: `${q.signature.slice(0, 10)}${q.signature[10] === 'A' ? 'B' : 'A'}${q.signature.slice(11)}` })],
    ['only the unused bits of its last character changed', (q) => ({ ...q, signature: `${q.signature.slice(0, -1)}${padBitTwin(q.signature.slice(-1))}` })],
    ['a shortened signature', (q) => ({ ...q, signature: q.signature.slice(0, 20) })],
    ['no signature', ({ signature: _s, ...q }) => q],
    ['no expiry', ({ expires: _e, ...q }) => q],
    ['an expiry that is not a number', (q) => ({ ...q, expires: '1e12' })],
  ])('refuses a link with %s', (_case, alter) => {
    expect(verifyFileUrl(key, file.key, alter(query), clock.now())).toEqual({ valid: false, reason: 'invalid' });
  });

  it('refuses a link made for another file key, or signed with another secret', () => {
    expect(verifyFileUrl(key, file.key.replace('.pdf', '-2.pdf'), query, clock.now())).toEqual({ valid: false, reason: 'invalid' });
    const otherKey = fileSigningKey(Buffer.from('cd'.repeat(32), 'hex'));
    expect(verifyFileUrl(otherKey, file.key, query, clock.now())).toEqual({ valid: false, reason: 'invalid' });
  });

  it('derives the same signing key from the same secret (every replica), never the secret itself', () => {
    expect(fileSigningKey(Buffer.from('ab'.repeat(32), 'hex')).equals(key)).toBe(true);
    expect(key.equals(secret)).toBe(false);
    expect(key).toHaveLength(32);
  });

  it('builds the Location under the public URL, the key in the query string', () => {
    const location = new URL(reportFileLocation({ publicUrl: 'https://pss.example/' }, key, file, clock));
    expect(location.origin).toBe('https://pss.example');
    expect(location.pathname).toBe(REPORT_FILES_PATH);
    const { key: fileKey, ...params } = Object.fromEntries(location.searchParams);
    expect(fileKey).toBe(file.key);
    expect(params).toEqual({ expires: String(Date.parse('2026-11-23T13:00:00.000Z') / 1000), sha256: file.sha256, name: file.fileName, signature: expect.stringMatching(/^[\w-]{43}$/) });
    expect(verifyFileUrl(key, fileKey, params, clock.now()).valid).toBe(true);
  });
});
