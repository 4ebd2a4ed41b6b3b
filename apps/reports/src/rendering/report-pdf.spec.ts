import { execFileSync } from 'node:child_process';
import { describeWithPoppler } from '@pss/testkit';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportLocale } from '@pss/report-files';
import { FIXTURE_DOMAIN, FIXTURE_SNAPSHOT_ID, largeReportData, reportDataFixture } from '@pss/report-files/testing/report-data.fixture';
import { renderReportPdf, type ReportPdfSnapshot } from './report-pdf';

const SHA256 = '3f1c9a7be2d4056c8a1e9f0b7d6c5a4e3f2b1a0c9d8e7f6a5b4c3d2e1f0a9b8c';
const snapshot = (locale: ReportLocale, timezone = 'America/Sao_Paulo'): ReportPdfSnapshot => ({
  id: FIXTURE_SNAPSHOT_ID,
  sha256: SHA256,
  kind: 'weekly',
  created_at: '2026-11-23T12:00:00.000Z',
  generated_by: 'api:pss_live_0123456789abcdef0123456789abcdef',
  locale,
  timezone,
});

/** poppler-utils reads the PDFs as an assessor's tools would; `.ci/run` installs it. */
const describePoppler = describeWithPoppler('report PDF checks');

describePoppler('report PDF (read back with poppler)', () => {
  let directory: string;
  beforeAll(() => (directory = mkdtempSync(join(tmpdir(), 'pss-pdf-'))));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  let files = 0;
  const written = (pdf: Buffer): string => {
    const file = join(directory, `report-${++files}.pdf`);
    writeFileSync(file, pdf);
    return file;
  };
  /** The text, its line breaks (where the layout wrapped a cell) as single spaces. */
  const text = (file: string, page?: number): string =>
    execFileSync('pdftotext', [...(page ? ['-f', String(page), '-l', String(page)] : []), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  const pages = (file: string): number => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
  const fonts = (file: string): Array<{ name: string; embedded: string }> =>
    execFileSync('pdffonts', [file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => {
        const columns = line.trim().split(/\s+/);
        return { name: columns[0], embedded: columns[columns.length - 5] };
      });

  it('reads in Portuguese: accented labels, the domain, the sha256 on the cover and "Página n de N"', async () => {
    const file = written(await renderReportPdf(reportDataFixture(), snapshot('pt-BR')));
    const all = text(file);
    for (const expected of ['Relatório de conformidade PCI DSS v4.0', 'Justificativa', 'justificativa por escrito', 'Situação', 'Gravidade', 'Cabeçalhos de segurança', 'Verificações periódicas', 'SEM MONITORAMENTO', 'Loja São João — Pagamentos', 'aguardando revisão', 'Código próprio da página de pagamento']) {
      expect(all).toContain(expected);
    }
    expect(all).toContain(FIXTURE_DOMAIN);
    const cover = text(file, 1);
    expect(cover).toContain(SHA256);
    expect(cover).toContain(FIXTURE_SNAPSHOT_ID);
    expect(cover).toContain('api:pss_live_0123456789abcdef0123456789abcdef');
    expect(cover).toMatch(/16\/11\/2026 09:00 — 23\/11\/2026 09:00 \(America\/Sao_Paulo\)/);
    expect(cover).toContain('16/11/2026 12:00 UTC — 23/11/2026 12:00 UTC');
    const count = pages(file);
    expect(count).toBeGreaterThan(1);
    expect(text(file, count)).toContain(`Página ${count} de ${count}`);
  });

  it('reads in English with every label in English', async () => {
    const file = written(await renderReportPdf(reportDataFixture({ meta: { ...reportDataFixture().meta, locale: 'en' } }), snapshot('en')));
    const all = text(file);
    for (const expected of ['PCI DSS v4.0 compliance report', 'Justification', 'Authorized by', 'Security headers', 'Periodic checks', 'NO MONITORING', 'needs review', 'Page 1 of']) {
      expect(all).toContain(expected);
    }
    expect(all).toContain(FIXTURE_DOMAIN);
    for (const portuguese of ['Justificativa', 'Página', 'Situação']) expect(all).not.toContain(portuguese);
  });

  it('shows the headers of paths the store never declared apart from its payment pages, only when there are some', async () => {
    const fixture = reportDataFixture({ meta: { ...reportDataFixture().meta, locale: 'en' } });
    const junk = { ...fixture.headers[0], page: '/junk/forged-path', declared_page: false };
    const all = text(written(await renderReportPdf({ ...fixture, headers: [...fixture.headers.map((row) => ({ ...row, declared_page: true })), junk] }, snapshot('en'))));
    const apart = all.indexOf('Headers of undeclared paths');
    expect(apart).toBeGreaterThan(all.indexOf('Security headers'));
    expect(all.indexOf('/junk/forged-path')).toBeGreaterThan(apart);
    expect(all.slice(0, apart)).not.toContain('/junk/forged-path');
    expect(text(written(await renderReportPdf(fixture, snapshot('en'))))).not.toContain('Headers of undeclared paths');
  });

  it('says in one line what each figure counts, explains the change events by kind, and lists the pages observed', async () => {
    const all = text(written(await renderReportPdf(reportDataFixture(), snapshot('en'))));
    for (const expected of [
      'Figure Value What it counts',
      'Changes detected 5 Each detection in the period counts once (by kind in the lines below). An alert groups repeated detections',
      'Header changes 2 Security headers added, removed or changed, one per header.',
      'CSP violations 1 Content-Security-Policy violation reports received.',
      'Scripts inventoried 4 Distinct scripts seen',
      'Pages observed 3 Distinct page paths the SDK sent batches from',
      'Occurrences: how many times the alert was seen up to the end of the period, the first included',
      'SDK batches: batches that looked like page views',
      "Weeks start at the store's creation.",
      'Pages observed by the SDK',
      '3 in all, the 3 busiest listed',
      '/checkout/pagamento 4,210',
      '/checkout/confirmação 166',
    ]) {
      expect(all).toContain(expected);
    }
    const old = reportDataFixture();
    const { events_by_kind: _kinds, pages_observed: _count, ...summary } = old.summary_1161;
    const before = text(written(await renderReportPdf({ ...old, summary_1161: summary, pages_observed: undefined }, snapshot('en'))));
    expect(before).toContain('Changes detected 5');
    for (const absent of ['Header changes', 'Pages observed']) expect(before).not.toContain(absent);
  });

  it('lists the connections beside the scripts, and has no such section in a snapshot made before them', async () => {
    const fixture = reportDataFixture({ meta: { ...reportDataFixture().meta, locale: 'en' } });
    const all = text(written(await renderReportPdf(fixture, snapshot('en'))));
    for (const expected of ['Connections of the payment pages', 'Destination Via Initiating scripts', 'https://api.stripe.com fetch, beacon https://js.stripe.com/v3/', 'https://coleta.evil.example image —']) {
      expect(all).toContain(expected);
    }
    expect(all.indexOf('Connections of the payment pages')).toBeGreaterThan(all.indexOf('Scripts'));
    expect(text(written(await renderReportPdf({ ...fixture, connections: undefined }, snapshot('en'))))).not.toContain('Connections of the payment pages');
  });

  it('embeds every font it uses', async () => {
    const file = written(await renderReportPdf(reportDataFixture(), snapshot('pt-BR')));
    const used = fonts(file);
    expect(used.map((font) => font.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    for (const font of used) expect(font.embedded).toBe('yes');
  });

  it('pages a large report, with the table header repeated on every page of the table', async () => {
    const file = written(await renderReportPdf(largeReportData({ scripts: 300, alerts: 400 }), snapshot('pt-BR')));
    const count = pages(file);
    expect(count).toBeGreaterThan(20);
    const scriptPages = Array.from({ length: 4 }, (_, i) => text(file, 3 + i));
    for (const page of scriptPages) {
      expect(page).toContain('Hashes');
      expect(page).toContain('Justificativa');
    }
    expect(text(file, count)).toContain(`Página ${count} de ${count}`);
  });

  it('wraps long URLs and hashes inside their column, and cuts a cell taller than a page with a note', async () => {
    const data = reportDataFixture();
    const csp = Array.from({ length: 800 }, (_, i) => `https://cdn${i}.example.com`).join(' ');
    data.headers = [{ ...data.headers[0], last_value: `script-src ${csp}` }];
    const file = written(await renderReportPdf(data, snapshot('pt-BR')));
    const all = text(file);
    expect(all).toContain('[texto cortado: a íntegra está no JSON e no CSV]');
    // The hash comes out whole once its line breaks are taken out (pdftotext also drops a hyphen that ends a line).
    expect(all.replace(/\s+/g, '')).toContain(data.scripts[0].current_hash!.replace('sha384-', ''));
  });

  it('renders an empty period, and text no font covers or no line can hold, without failing', async () => {
    const empty = reportDataFixture({ scripts: [], headers: [], alerts: [], policies: [], periodic_checks: [], data_access: [] });
    const file = written(await renderReportPdf(empty, snapshot('pt-BR')));
    expect(text(file)).toContain('Nada a relatar neste período.');
    const odd = reportDataFixture();
    odd.scripts[0] = { ...odd.scripts[0], src: `https://cdn.example.com/${'x'.repeat(20_000)}`, justification: 'emoji 🔒, árabe مرحبا, CJK 支付, combining e\u0301, NUL \u0000 and tab\tend' };
    const pdf = await renderReportPdf(odd, snapshot('en'));
    expect(text(written(pdf))).toContain('[cut: the full text is in the JSON and the CSV]');
  });

  it('shows UTC for a store whose time zone is unknown to the runtime', async () => {
    const file = written(await renderReportPdf(reportDataFixture(), snapshot('pt-BR', 'Mars/Olympus_Mons')));
    expect(text(file, 1)).toContain('16/11/2026 12:00 — 23/11/2026 12:00 (UTC)');
  });
});

describe('report PDF bytes', () => {
  it('are the same for the same snapshot: replicas rendering it at once store one file, and a signed link keeps its digest', async () => {
    const [first, second] = [await renderReportPdf(reportDataFixture(), snapshot('pt-BR')), await renderReportPdf(reportDataFixture(), snapshot('pt-BR'))];
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(first.equals(second)).toBe(true);
    expect((await renderReportPdf(reportDataFixture(), snapshot('en'))).equals(first)).toBe(false);
  });
});
