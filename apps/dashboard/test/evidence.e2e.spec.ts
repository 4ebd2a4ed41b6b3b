import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { BUS, type Bus } from '@pss/bus';
import { EVIDENCE_CHAIN_QUERIES, PAGE_HISTORY_QUERIES } from '@pss/contracts';
import { eventually, sri } from '@pss/testkit';
import { accessible, DashboardInChromium, describeInChromium, ownerBackWithRecoveryCode, pressByKeyboard, screenshot, signInWithCode, text, wallClock } from './dashboard-browser';

const OWNER = 'me@shop.example';
const WIDGET = 'https://cdn.checkout-widgets.io/w.js';
const ANALYTICS = 'https://stats.tracker-unknown.io/t.js';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The evidence pages in Chromium (issue 32), as a shop's security team uses them after a change: an authorized
 * script's content changes on the checkout (fed through the SDK's HTTP endpoint), the alert reads as a sentence
 * and is resolved with a note by keyboard, the checkout is shown as it was before the change, and the PDF report
 * generated from the dashboard counts what the inventory lists. Every page: axe-core and 0 CSP violations.
 */
describeInChromium('dashboard alerts, page as of a date and reports in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  const rows = (page: Page, table: string) =>
    page.$$eval(`#${table} tbody tr`, (found) => found.map((row) => Array.from(row.querySelectorAll('td'), (cell: { textContent: string | null }) => (cell.textContent ?? '').trim())));
  /** A dashboard GET beside the browser, with the person's session: the files a link downloads. */
  const fetchAs = async (page: Page, path: string) =>
    dashboard.service.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: path, headers: { cookie: await dashboard.sessionCookie(page.browserContext()) } });

  it('shows the changed script’s alert as a sentence, resolves it, shows the checkout before the change, and reports it', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const { token } = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:read,stores:write,scripts:read,scripts:review,alerts:read' });
    const api = (method: string, path: string, body?: unknown) => dashboard.service.request(method, `/api/v1${path}`, { token, body });
    const store = await dashboard.service.createStore(token, { name: 'Loja', payment_pages: [{ url_pattern: '/checkout', payment_methods: ['card'] }] });
    const sdk = (hash: string, session: string) =>
      dashboard.service.reportSdk(store.sdk_key, [{ kind: 'script', src: WIDGET, hash, hash_source: 'sdk' }, { kind: 'script', src: ANALYTICS, hash: sri('t v1'), hash_source: 'sdk' }], { session_id: session });
    expect((await sdk(sri('widget v1'), 'shopper-1')).status).toBe(202);
    const scripts = await eventually(async () => (await api('GET', `/scripts?store_id=${store.id}`)).body.data as any[], (found) => found.length === 2);
    const widget = scripts.find((script) => script.src === WIDGET);
    expect((await api('POST', `/scripts/${widget.id}/authorize`, { justification: 'Installments widget' })).status).toBe(200);
    // The moment the assessor will ask about: authorized, before the change (the fields take seconds).
    await pause(1_500);
    const before = new Date();
    await pause(1_500);
    expect((await sdk(sri('widget v1 tampered'), 'shopper-2')).status).toBe(202);
    const [alert] = await eventually(async () => (await api('GET', `/alerts?store_id=${store.id}&type=SCRIPT_INTEGRITY_MISMATCH`)).body.data as any[], (found) => found.length === 1);

    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);

    // Alerts: the change as a sentence, not JSON.
    await pressByKeyboard(page, 'Alerts');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/alerts`);
    const sentence = `The content of the script ${WIDGET} changed: it is now ${sri('widget v1 tampered')}, and the authorized one is ${sri('widget v1')} (before: ${sri('widget v1')}).`;
    expect(await text(page)).toContain(sentence);
    expect(await text(page)).not.toContain('{');
    await accessible(page);
    await screenshot(page, 'alerts', { fullPage: true });
    const filtered = await page.goto(`${dashboard.base}/dashboard/alerts?type=SCRIPT_INTEGRITY_MISMATCH&status=resolved`);
    expect(filtered!.status()).toBe(200);
    expect(await text(page)).toContain('No alert found.');
    expect((await page.goto(`${dashboard.base}/dashboard/alerts?severity=urgent`))!.status()).toBe(400);
    await page.goto(`${dashboard.base}/dashboard/alerts?type=SCRIPT_INTEGRITY_MISMATCH`);

    // Resolved with a note, by keyboard; the alert names the person.
    const open = await page.$eval('#alerts tbody a', (link) => link.getAttribute('aria-label') ?? '');
    await pressByKeyboard(page, open);
    expect(page.url()).toBe(`${dashboard.base}/dashboard/alerts/${alert.id}`);
    expect(await text(page)).toContain('Seen on https://');
    await accessible(page);
    const refused = await dashboard.postForm(page, `/dashboard/alerts/${alert.id}`, 'status=resolved&note=forged', false);
    expect(refused.status).toBe(403);
    await page.focus('#note');
    await page.keyboard.type('CDN file replaced by the vendor; restored and pinned with SRI');
    await pressByKeyboard(page, 'Resolve with this note');
    expect(await text(page)).toContain('Alert resolved.');
    expect(await text(page)).toContain(`Resolved by user:${OWNER}`);
    await accessible(page);
    await screenshot(page, 'alert', { fullPage: true });
    expect((await api('GET', `/alerts/${alert.id}`)).body).toMatchObject({ status: 'resolved', resolved_by_label: `user:${OWNER}`, note: 'CDN file replaced by the vendor; restored and pinned with SRI' });

    // The checkout as of before the change: the authorized content; as of now: the changed one.
    await pressByKeyboard(page, 'Page on a date');
    await accessible(page);
    await pressByKeyboard(page, 'Choose the store');
    const moment = wallClock(before, store.timezone);
    await page.$eval('#date', (input, value) => ((input as unknown as { value: string }).value = value), moment.date);
    await page.$eval('#time', (input, value) => ((input as unknown as { value: string }).value = value), moment.time);
    await pressByKeyboard(page, 'Show the page');
    const then = await rows(page, 'page-as-of');
    expect(then.find((row) => row[0] === WIDGET)).toEqual([WIDGET, 'Authorized', 'Matches the authorized content', sri('widget v1'), expect.any(String), expect.any(String)]);
    expect(then.find((row) => row[0] === ANALYTICS)?.slice(0, 4)).toEqual([ANALYTICS, 'Needs review', 'Monitored', sri('t v1')]);
    await accessible(page);
    await screenshot(page, 'page-as-of', { fullPage: true });
    const later = wallClock(new Date(), store.timezone);
    await page.goto(`${dashboard.base}/dashboard/page-as-of?store_id=${store.id}&page_id=${store.pages[0].id}&date=${later.date}&time=${later.time}`);
    expect((await rows(page, 'page-as-of')).find((row) => row[0] === WIDGET)?.slice(0, 4)).toEqual([WIDGET, 'Authorized', 'Not the authorized content', sri('widget v1 tampered')]);

    // Reports: generated from the dashboard, the chain verified, the PDF's counts those of the inventory.
    await pressByKeyboard(page, 'Reports');
    await accessible(page);
    await pressByKeyboard(page, 'Generate the report');
    expect(await text(page)).toContain('Report no. 1 generated.');
    expect(await page.$eval('#chain-result', (result) => result.textContent)).toContain('Verified: 1 report(s) in sequence');
    await accessible(page);
    await screenshot(page, 'reports', { fullPage: true });
    const refusedReport = await dashboard.postForm(page, '/dashboard/reports', `store_id=${store.id}&period_start=2026-01-01&period_end=2026-01-02&locale=en`, false);
    expect(refusedReport.status).toBe(403);

    const pdfLink = await page.$eval('#snapshots a[aria-label="PDF of report no. 1"]', (link) => link.getAttribute('href') ?? '');
    const toPdf = await fetchAs(page, pdfLink);
    expect(toPdf.statusCode).toBe(303);
    const signed = new URL(String(toPdf.headers.location));
    const pdf = await dashboard.service.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: `${signed.pathname}${signed.search}` });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const file = join(mkdtempSync(join(tmpdir(), 'pss-evidence-')), 'report.pdf');
    writeFileSync(file, pdf.rawPayload);
    const pdfText = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    const inventory = (await api('GET', `/scripts?store_id=${store.id}`)).body.data as any[];
    const authorized = inventory.filter((script) => ['authorized', 'trusted'].includes(script.status)).length;
    expect(pdfText).toContain(`Scripts inventoried ${inventory.length} `);
    expect(pdfText).toContain(`Authorized ${authorized} `);

    const csvLink = await page.$eval('#snapshots a[aria-label="CSV scripts of report no. 1"]', (link) => link.getAttribute('href') ?? '');
    const csv = await fetchAs(page, csvLink);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain(WIDGET);
    expect(csv.body).toContain(ANALYTICS);

    // Checked on the server: a viewer reads, and may neither resolve nor generate; another organization gets nothing.
    const viewerCode = await dashboard.seatMember(org.id, 'viewer@shop.example', { kind: 'viewer' });
    const { page: viewer } = await dashboard.personWithPasskeyDevice();
    await viewer.goto(`${dashboard.base}/dashboard/sign-in?lang=en`);
    await signInWithCode(viewer, 'viewer@shop.example', viewerCode);
    await viewer.goto(`${dashboard.base}/dashboard/alerts/${alert.id}`);
    expect(await text(viewer)).toContain('Your role may read the alerts');
    expect((await dashboard.postForm(viewer, `/dashboard/alerts/${alert.id}`, 'status=open&note=reopened', true)).status).toBe(403);
    await viewer.goto(`${dashboard.base}/dashboard/reports`);
    expect(await text(viewer)).toContain('Verified: 1 report(s) in sequence');
    expect((await dashboard.postForm(viewer, '/dashboard/reports', `store_id=${store.id}&period_start=2026-01-01&period_end=2026-01-02&locale=en`, true)).status).toBe(403);
    const stranger = await dashboard.service.createOrganization({ name: 'Other', 'owner-email': 'owner@other.example' });
    const bus = dashboard.service.app.get<Bus>(BUS);
    const asStranger = { orgId: stranger.id, storeId: store.id };
    await expect(bus.request(PAGE_HISTORY_QUERIES.scriptsOnPageAt, { ...asStranger, pageId: store.pages[0].id, at: new Date().toISOString() })).rejects.toMatchObject({ code: 'not_found' });
    await expect(bus.request(EVIDENCE_CHAIN_QUERIES.chainVerify, asStranger)).rejects.toMatchObject({ code: 'not_found' });

    expect(dashboard.violations).toEqual([]);
  }, 180_000);
});
