import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { buffer } from 'node:stream/consumers';
import { largeReportData, reportDataFixture } from './testing/report-data.fixture';
import type { CsvTable, ReportData, ReportLocale } from './report-data';
import { csvFileName } from './file-names';
import { csvCell } from '@pss/kernel';
import { reportCsv } from './report-csv';

// Bytes, not text(): a TextDecoder would take the BOM off before the test could see it.
const csv = async (data: ReportData, table: CsvTable, locale: ReportLocale = 'pt-BR') => (await buffer(reportCsv(data, table, locale))).toString('utf8');
/** Read back as a spreadsheet or a script would: RFC 4180, the BOM taken off. */
const parsed = (body: string): string[][] => parse(body, { bom: true, relax_column_count: false });

describe('report CSV', () => {
  it('starts with a UTF-8 BOM, ends every record with CRLF and has a header row in the report language', async () => {
    const bytes = await buffer(reportCsv(reportDataFixture(), 'scripts', 'pt-BR'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = bytes.toString('utf8');
    expect(body.startsWith('\uFEFFIdentificador,Script,')).toBe(true);
    expect(body.endsWith('\r\n')).toBe(true);
    // Records end with CRLF only: read with CRLF as the one record delimiter, every script is there.
    expect(parse(body, { bom: true, record_delimiter: ['\r\n'] })).toHaveLength(reportDataFixture().scripts.length + 1);
    const english = parsed(await csv(reportDataFixture(), 'alerts', 'en'));
    expect(english[0]).toEqual(['Id', 'Type', 'Severity', 'Status', 'Alert source', 'Page', 'Occurrences', 'First seen (UTC)', 'Last seen (UTC)', 'Resolved at (UTC)', 'Resolved by', 'Note']);
  });

  it('gives every script back field for field, quotes, commas, line breaks and accents intact', async () => {
    const data = reportDataFixture();
    const [header, ...records] = parsed(await csv(data, 'scripts'));
    expect(records).toHaveLength(data.scripts.length);
    const byId = new Map(records.map((record) => [record[0], Object.fromEntries(header.map((name, i) => [name, record[i]]))]));
    const firstParty = byId.get(data.scripts[1].id)!;
    expect(firstParty.Script).toBe(data.scripts[1].src);
    expect(firstParty.Justificativa).toBe('Código próprio da página de pagamento;\nrevisado pela equipe, "versão 2", com vírgulas');
    expect(firstParty['Hash atual']).toBe(data.scripts[1].current_hash);
    expect(firstParty['Versão da política']).toBe('3');
    expect(byId.get(data.scripts[0].id)!['Decisões (data, ação, método, quem: justificativa)']).toBe(
      '2026-11-17T12:30:00.000Z authorize (manual) api:pss_live_0123456789abcdef0123456789abcdef: Processamento de cartão',
    );
    expect(byId.get(data.scripts[3].id)!.Justificativa).toBe('');
  });

  it('gives every connection back with its ways, pages and initiators one per line', async () => {
    const data = reportDataFixture();
    const [header, ...records] = parsed(await csv(data, 'connections', 'en'));
    expect(header).toEqual(['Destination', 'Via', 'Page', 'Initiating scripts', 'First seen (UTC)', 'Last seen (UTC)']);
    expect(records).toEqual([
      ['https://api.stripe.com', 'fetch\nbeacon', '/checkout/pagamento\n/checkout/confirmação', 'https://js.stripe.com/v3/', data.connections![0].first_seen_at, data.connections![0].last_seen_at],
      ['https://coleta.evil.example', 'image', '/checkout/pagamento', '', data.connections![1].first_seen_at, data.connections![1].last_seen_at],
    ]);
    expect(parsed(await csv({ ...data, connections: undefined }, 'connections', 'en'))).toHaveLength(1); // a snapshot made before: the header row alone
  });

  it('neutralizes what a spreadsheet would run as a formula, in every text column', async () => {
    const data = reportDataFixture();
    const [, ...records] = parsed(await csv(data, 'scripts'));
    const blocked = records.find((record) => record[0] === data.scripts[2].id)!;
    expect(blocked[1]).toBe(`'=HYPERLINK("https://evil.example/x","clique")`);
    expect(blocked[8]).toBe("'+1 exfiltração suspeita; @SUM(A1) -2");
    const [, ...alerts] = parsed(await csv(data, 'alerts'));
    expect(alerts[1][11]).toBe('\'-Alteração aprovada pela equipe de segurança, ticket "SEC-42"');
  });

  it.each([
    ['=cmd|"/c calc"!A1', `"'=cmd|""/c calc""!A1"`],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\tleading tab', "'\tleading tab"],
    ['\rleading CR', `"'\rleading CR"`],
    ['\nleading LF', `"'\nleading LF"`],
    ['＝HYPERLINK("https://evil.example")', `"'＝HYPERLINK(""https://evil.example"")"`],
    ['＋1', "'＋1"],
    ['－2', "'－2"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['  =1+1', "'  =1+1"],
    ['\r\n+cmd', `"'\r\n+cmd"`],
    ['\u00A0\u3000@SUM(A1)', "'\u00A0\u3000@SUM(A1)"],
    ['\u200B=1', "'\u200B=1"],
    ['  plain text', '  plain text'],
    ['total = 1 + 2', 'total = 1 + 2'],
    ['a "quoted" word', '"a ""quoted"" word"'],
    ['one, two', '"one, two"'],
    ['line\nbreak', '"line\nbreak"'],
    ['ação — 支付 ✓', 'ação — 支付 ✓'],
    ['https://cdn.example.com/a.js?x=1', 'https://cdn.example.com/a.js?x=1'],
    ['', ''],
  ])('writes the cell %j as %j, and reads back as the neutralized text', (value, written) => {
    expect(csvCell(value)).toBe(written);
    const [[read]] = parsed(`${csvCell(value)}\r\n`.replace(/^\r\n$/, '""\r\n'));
    expect(read).toBe(/^"?'/.test(written) ? `'${value}` : value);
  });

  // What a spreadsheet trims before it looks for a formula, and what it takes for one.
  const blank = fc.constantFrom(' ', '\t', '\r', '\n', '\u00A0', '\u3000', '\u2003', '\u200B', '\uFEFF');
  const formula = fc.constantFrom('=', '+', '-', '@', '＝', '＋', '－', '＠');
  const char = fc.oneof(blank, formula, fc.constantFrom('"', ',', 'a', 'ç'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const text = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(''));
  // Behind another cell: a byte order mark that begins a file is the parser's to drop, not a cell's.
  const readBack = (value: string): string => parsed(`x,${csvCell(value)}\r\n`)[0][1];

  it('neutralizes a formula character behind any blanks, and reads back as the text behind a quote', () => {
    fc.assert(
      fc.property(fc.array(blank, { maxLength: 4 }), formula, text, (blanks, start, rest) => {
        const value = `${blanks.join('')}${start}${rest}`;
        expect(readBack(value)).toBe(`'${value}`);
      }),
    );
  });

  it('leaves any other text as it was, and always reads back as written or behind a quote', () => {
    fc.assert(
      fc.property(text, (value) => {
        const trimmed = value.replace(/^[\s\u200B-\u200D\u2060]+/, '');
        const risky = /^[=+\-@＝＋－＠]/.test(trimmed) || /^[\t\r\n]/.test(value);
        expect(readBack(value)).toBe(risky ? `'${value}` : value);
      }),
    );
  });

  it('writes numbers, booleans and absent values plainly', () => {
    expect([csvCell(-3), csvCell(12), csvCell(true), csvCell(false), csvCell(null)]).toEqual(['-3', '12', 'true', 'false', '']);
  });

  it('lists headers with their baseline, last value and changes, and every alert', async () => {
    const data = reportDataFixture();
    const [headerRow, ...headers] = parsed(await csv(data, 'headers'));
    expect(headerRow).toEqual(['Página', 'Cabeçalho', 'Linha de base', 'Linha de base em (UTC)', 'Último valor', 'Número de alterações', 'Alterações no período', 'Página de pagamento declarada']);
    expect(headers[2]).toEqual(['/checkout/pagamento', 'x-frame-options', '', '', 'DENY', '1', '2026-11-20T12:30:00.000Z added: ∅ → DENY', '']);
    const flagged = parsed(await csv({ ...data, headers: data.headers.map((row) => ({ ...row, declared_page: false })) }, 'headers'));
    expect(flagged[1][7]).toBe('false');
    const [, ...alerts] = parsed(await csv(data, 'alerts'));
    expect(alerts.map((alert) => alert[0])).toEqual(data.alerts.map((alert) => alert.id));
  });

  it('streams a large table in several chunks and loses no row', async () => {
    const data = largeReportData({ scripts: 10, alerts: 2_000 });
    const chunks: string[] = [];
    for await (const chunk of reportCsv(data, 'alerts', 'en')) chunks.push(String(chunk));
    expect(chunks.length).toBeGreaterThan(2);
    expect(parsed(chunks.join(''))).toHaveLength(2_001);
  });

  it('names the file in plain ASCII, the domain in its xn-- form and the period in UTC days', () => {
    expect(csvFileName('loja-acentuação.com.br', 'scripts', '2026-11-16T12:00:00.000Z', '2026-11-23T12:00:00.000Z')).toBe(
      'pci-report_xn--loja-acentuao-7eb3d.com.br_scripts_20261116-20261123.csv',
    );
    expect(csvFileName('shop.example.com', 'alerts', '2026-01-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z')).toBe('pci-report_shop.example.com_alerts_20260101-20261231.csv');
    expect(csvFileName('"; evil\r\nX: y', 'headers', 'not a date', '2026-01-01T00:00:00Z')).toMatch(/^pci-report_[a-z0-9.-]+_headers_undated-20260101\.csv$/);
  });
});
