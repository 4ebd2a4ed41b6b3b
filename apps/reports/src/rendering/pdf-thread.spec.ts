import { execFileSync } from 'node:child_process';
import { describeWithPoppler } from '@pss/testkit';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportBodyOf } from '@pss/contracts';
import { canonicalJson } from '@pss/kernel';
import { FIXTURE_DOMAIN, reportDataFixture } from '@pss/report-files/testing/report-data.fixture';
import { PdfThread } from './pdf-thread';

const describePoppler = describeWithPoppler('PDF thread checks');

const own = { report_id: '0193a5b0-7c1e-7d2a-9f00-000000000042', generated_at: '2026-11-24T08:00:00.000Z' };
const snapshot = { id: own.report_id, sha256: 'ab'.repeat(32), kind: 'on_demand', created_at: own.generated_at, generated_by: 'api:pss_live_0123', locale: 'en' as const };

/** Issue 29, item 2: the PDF is put together, parsed and rendered in a worker thread. */
describePoppler('the PDF thread', () => {
  let thread: PdfThread;
  let directory: string;
  beforeAll(() => {
    thread = new PdfThread();
    directory = mkdtempSync(join(tmpdir(), 'pss-pdf-thread-'));
  });
  afterAll(async () => {
    await thread.onModuleDestroy();
    rmSync(directory, { recursive: true, force: true });
  });

  const text = (pdf: Buffer): string => {
    const file = join(directory, `${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  };

  it('renders a snapshot from its stored body, with its own id, in the store\'s time zone', async () => {
    const pdf = await thread.render(canonicalJson(reportBodyOf(reportDataFixture())), own, snapshot);

    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(text(pdf)).toContain(own.report_id);
    expect(text(pdf)).toContain(FIXTURE_DOMAIN);
    // 08:00 UTC is 05:00 in São Paulo: the time zone came from the data, inside the thread.
    expect(text(pdf)).toContain('Generated at Nov 24, 2026 05:00 (America/Sao_Paulo) · Nov 24, 2026 08:00 UTC');
  });

  it('fails the one render whose data is broken, then renders the next', async () => {
    await expect(thread.render('{"meta":', own, snapshot)).rejects.toThrow();
    const [one, two] = await Promise.all([
      thread.render(canonicalJson(reportDataFixture()), null, snapshot),
      thread.render(canonicalJson(reportBodyOf(reportDataFixture())), own, { ...snapshot, locale: 'pt-BR' }),
    ]);
    expect(text(one)).toContain('Snapshot');
    expect(text(two)).toContain(own.report_id);
  });

  it('starts a new thread when the one rendering is gone, failing what it held', async () => {
    const held = thread.render(canonicalJson(reportBodyOf(reportDataFixture())), own, snapshot);
    await thread.onModuleDestroy();
    await expect(held).rejects.toThrow(/PDF thread exited/);
    expect(text(await thread.render(canonicalJson(reportBodyOf(reportDataFixture())), own, snapshot))).toContain(own.report_id);
  });
});
