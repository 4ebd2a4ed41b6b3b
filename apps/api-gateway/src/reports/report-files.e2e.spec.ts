import { createHash } from 'node:crypto';
import { FILE_STORE, type FileStore } from '@pss/files';
import { ManualClock } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { ReportFileLinks } from '@pss/report-files/report-file-links';

const KEY = 'reports/0193a5b0-0000-7000-8000-0000000000aa/0193a5b0-7c1e-7d2a-9f00-5e1f2a3b4c5d.pdf';
const PDF = Buffer.from('%PDF-1.3\n% a report, with bytes that are not text: \u00ff\u0000\n%%EOF\n', 'latin1');
const NAME = 'pci-report_xn--loja-acentuao-7eb3d.com.br_20261116-20261123.pdf';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('report files by signed link (GET /files/v1/reports)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  let harness: EmbeddedHarness;
  let files: FileStore;
  let links: ReportFileLinks;

  beforeAll(async () => {
    harness = await EmbeddedHarness.start({ clock, env: { PUBLIC_URL: 'https://pss.example' } });
    files = harness.app.get(FILE_STORE);
    links = harness.app.get(ReportFileLinks, { strict: false });
  });
  afterAll(() => harness.close());
  beforeEach(async () => {
    clock.set('2026-11-23T12:00:00.000Z');
    await files.put(KEY, PDF, 'application/pdf');
  });

  /** The Location's path and query, as a browser following the redirect would ask for it. */
  const pathOf = (location: string) => {
    const url = new URL(location);
    expect(url.origin).toBe('https://pss.example');
    return `${url.pathname}${url.search}`;
  };
  const link = () => pathOf(links.location({ key: KEY, sha256: sha256(PDF), fileName: NAME }));

  it('serves the PDF bytes without a token, as an attachment with the file name', async () => {
    const answer = await harness.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: link() });
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.equals(PDF)).toBe(true);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="${NAME}"`);
    expect(answer.headers['cache-control']).toBe('private, max-age=3600');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses the link once its hour has passed: 403 forbidden', async () => {
    const url = link();
    clock.advance(60 * 60 * 1000 - 1000);
    expect((await harness.request('GET', url)).status).toBe(200);
    clock.advance(1000);
    const answer = await harness.request('GET', url);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: 'This link has expired; ask for the report again' } });
  });

  it.each([
    ['expiry', (q: URLSearchParams) => q.set('expires', String(Number(q.get('expires')) + 3600))],
    ['file key', (q: URLSearchParams) => q.set('key', KEY.replace('.pdf', '-other.pdf'))],
    ['digest', (q: URLSearchParams) => q.set('sha256', sha256(Buffer.from('other')))],
    ['file name', (q: URLSearchParams) => q.set('name', 'other.pdf')],
    ['signature', (q: URLSearchParams) => q.set('signature', `${'A'.repeat(42)}E`)],
  ])('refuses a link whose %s was altered: 403 forbidden', async (_field, alter) => {
    const url = new URL(link(), 'https://pss.example');
    alter(url.searchParams);
    const answer = await harness.request('GET', `${url.pathname}${url.search}`);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: 'This link is not valid' } });
  });

  it('answers 400 with one detail per field for a malformed link, and never serves a key outside the files', async () => {
    const answer = await harness.request('GET', '/files/v1/reports?key=../secret.key&expires=soon&sha256=abc&name=a%20b&signature=x');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['expires', 'key', 'name', 'sha256', 'signature']);
  });

  it('answers 404 for a genuine link whose file is gone or holds other bytes now', async () => {
    const url = link();
    await files.put(KEY, Buffer.from('%PDF-1.3 regenerated'), 'application/pdf');
    const answer = await harness.request('GET', url);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
    const missing = pathOf(links.location({ key: 'reports/none.pdf', sha256: sha256(PDF), fileName: NAME }));
    expect((await harness.request('GET', missing)).status).toBe(404);
  });
});
