import { createHash } from 'node:crypto';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/** Paths beyond the payment pages a store keeps headers of (inventory's MAX_UNDECLARED_PAGES, docs/sdk.md). */
const MAX_UNDECLARED_PAGES = 100;
const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'reports:read', 'reports:generate'];

/**
 * What the public key can make the service keep is bounded (issue 29, item 3): pages only on the store's domain,
 * long header values as their hash, a cap on the paths beyond the payment pages, and the report keeping the
 * paths the store never declared apart from its payment pages.
 */
describe('Write amplification through the public key (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });
  const report = async (storeId: string) => (await suite.get(`/reports/pci?store_id=${storeId}`)).body.data;
  const csp = (value: string) => ({ kind: 'headers', headers: { 'Content-Security-Policy': value } });

  it('refuses, with its reason, a batch or CSP report whose page is not on the store domain: nothing of it is kept', async () => {
    const store = await suite.newStore();
    const elsewhere = { page_url: 'https://evil.example/any/path/1' };
    const script = { kind: 'script', src: 'https://cdn.evil.example/x.js', hash: sri('x') };
    const answer = await suite.service.reportSdk(store.sdk_key, [script, csp("script-src 'self'")], elsewhere);
    const reason = `page_url is not on this store's domain (${store.domain} or its subdomains): nothing of the batch is recorded`;
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ accepted: 0, rejected: 2, rejections: [{ index: 0, reason }, { index: 1, reason }] });

    const legacy = { 'csp-report': { 'document-uri': 'https://evil.example/x', 'effective-directive': 'script-src', 'blocked-uri': 'https://evil.example/s.js' } };
    const cspReport = await suite.service.request('POST', `/sdk/v1/csp?key=${store.sdk_key}`, { body: JSON.stringify(legacy), headers: { 'content-type': 'application/csp-report' } });
    // A report is counted as the observations it makes (the violation, and the blocked script).
    expect(cspReport.body).toMatchObject({ accepted: 0, rejections: [{ index: 0, reason }, { index: 0, reason }] });

    // The store's own pages and subdomains still count.
    const own = await suite.service.reportSdk(store.sdk_key, [csp("script-src 'self'")], { page_url: `https://checkout.${store.domain}/pay` });
    expect(own.body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
    expect((await suite.get(`/scripts?store_id=${store.id}`)).body.data).toEqual([]);
    expect((await report(store.id)).headers.map((row: { page: string }) => row.page)).toEqual(['/pay']);
  });

  it('keeps an 8 KB header value as its hash, and a short one as it is', async () => {
    const store = await suite.newStore();
    const huge = `script-src 'self' ${'x'.repeat(8 * 1024 - 18)}`; // 8 KB: the longest value taken
    const answer = await suite.service.reportSdk(store.sdk_key, [{ kind: 'headers', headers: { 'Content-Security-Policy': huge, 'X-Frame-Options': 'DENY' } }]);
    expect(answer.body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
    const rows = await eventually(() => report(store.id), (data) => data.headers.length === 2);
    expect(rows.headers.map((row: { name: string; baseline: string }) => [row.name, row.baseline])).toEqual([
      ['content-security-policy', `sha256:${createHash('sha256').update(huge).digest('hex')}`],
      ['x-frame-options', 'DENY'],
    ]);
  });

  it('refuses the headers of a new path past the cap of paths beyond the payment pages, and the report shows those paths apart', async () => {
    const store = await suite.newStore({ payment_pages: [{ url_pattern: '/pagamento/*', payment_methods: ['pix'] }] });
    const page = (path: string) => ({ page_url: `https://www.${store.domain}${path}`, session_id: `s${path.replace(/\//g, '-')}` });
    for (let n = 0; n < MAX_UNDECLARED_PAGES; n += 1) {
      const answer = await suite.service.reportSdk(store.sdk_key, [csp(`script-src 'self' https://junk${n}.example`)], page(`/junk/${n}`), `198.51.100.${n % 200}`);
      expect([n, answer.body.accepted]).toEqual([n, 1]);
    }
    const past = await suite.service.reportSdk(store.sdk_key, [{ kind: 'iframe', origin: 'https://pay.example' }, csp("script-src 'self'")], page('/junk/past'), '203.0.113.9');
    expect(past.body).toEqual({
      accepted: 1,
      rejected: 1,
      rejections: [
        {
          index: 1,
          reason: `headers not recorded: this store already keeps the headers of ${MAX_UNDECLARED_PAGES} paths that are not its payment pages; declare this page as a payment page to monitor it`,
        },
      ],
    });
    // A payment page is never capped, and a capped path's headers are refused again, not remembered at the edge.
    expect((await suite.service.reportSdk(store.sdk_key, [csp("script-src 'self'")], page('/pagamento/pix'), '203.0.113.9')).body.accepted).toBe(1);
    expect((await suite.service.reportSdk(store.sdk_key, [csp("script-src 'self'")], page('/junk/past'), '203.0.113.9')).body.rejected).toBe(1);

    const rows: Array<{ page: string; declared_page: boolean }> = (await report(store.id)).headers;
    expect(rows[0]).toMatchObject({ page: '/pagamento/pix', declared_page: true });
    expect(rows.slice(1).every((row) => row.declared_page === false && row.page.startsWith('/junk/'))).toBe(true);
    expect(rows).toHaveLength(1 + MAX_UNDECLARED_PAGES);
  });
});
