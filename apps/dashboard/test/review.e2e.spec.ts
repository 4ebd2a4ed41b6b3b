import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '@pss/projections';
import { eventually, sri } from '@pss/testkit';
import { accessible, DashboardInChromium, decideByKeyboard, describeInChromium, ownerBackWithRecoveryCode, pressByKeyboard, reviewRowSources, screenshot, signInWithCode, tableRows, text } from './dashboard-browser';

const OWNER = 'me@shop.example';
const VENDOR = 'https://sdk.mercadopago.com/js/v2';
const VENDOR_SCRIPTS = [VENDOR, `${VENDOR}/card-form.js`, `${VENDOR}/security.js`, `${VENDOR}/3ds.js`];

/**
 * The review inbox, a script's page and the inventory in Chromium, by keyboard (issue 32): a store fed through
 * the SDK's HTTP endpoint, three scripts of one vendor authorized in one action with a justification and a fourth
 * blocked, the script's page with its review and rule, the audit log naming the person, the inventory per payment
 * page and its CSV downloaded; axe and 0 CSP violations on every page; a form without its CSRF token refused.
 */
describeInChromium('dashboard review inbox, script page and inventory in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  /** The store's scripts once the policies have recommended on each (the inbox offers their templates). */
  const recommended = (storeId: string, token: string, count: number) =>
    eventually(
      async () => {
        await dashboard.service.app.get(ProjectionRunner).catchUp();
        return (await dashboard.service.request('GET', `/api/v1/scripts?store_id=${storeId}`, { token })).body.data as Array<{ recommendation: unknown }>;
      },
      (scripts) => scripts.length === count && scripts.every((script) => script.recommendation !== null),
    );
  it('decides on a vendor by keyboard, shows what the inventory knows, and exports the inventory the page shows', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const { token } = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:read,stores:write,scripts:read' });
    const store = await dashboard.service.createStore(token, { name: 'Loja', payment_pages: [{ url_pattern: '/checkout', payment_methods: ['card'] }] });
    const first = `https://www.${store.domain}/static/app.js`;
    const checkout = [...VENDOR_SCRIPTS, first].map((src) => ({ kind: 'script', src, hash: sri(src), hash_source: 'sdk', size_bytes: 1000 }));
    expect((await dashboard.service.reportSdk(store.sdk_key, checkout)).status).toBe(202);
    const widget = 'https://cdn.widgets-unknown.io/w.js';
    const cart = { page_url: `https://www.${store.domain}/cart`, session_id: 'shopper-2' };
    expect((await dashboard.service.reportSdk(store.sdk_key, [{ kind: 'script', src: widget, hash: sri(widget), hash_source: 'sdk' }], cart)).status).toBe(202);
    await recommended(store.id, token, 6);

    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);
    await pressByKeyboard(page, 'Review');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/review`);
    expect((await reviewRowSources(page)).sort()).toEqual([...VENDOR_SCRIPTS, first, widget].sort());
    // The payment-provider policy's template, filled for the group, is where the justification starts.
    const groups = await page.$$eval('section.review-group', (sections) =>
      sections.map((section) => [section.querySelector('h2')!.textContent, (section.querySelector('textarea') as unknown as { value: string } | null)?.value]),
    );
    expect(groups).toContainEqual(['sdk.mercadopago.com · mercado_pago', 'Payment provider Mercado Pago on sdk.mercadopago.com']);
    expect(groups).toContainEqual(['cdn.widgets-unknown.io · unknown vendor', '']);
    await accessible(page);
    await screenshot(page, 'review-inbox', { fullPage: true });

    const authorized = VENDOR_SCRIPTS.slice(0, 3);
    await decideByKeyboard(page, authorized, 'Mercado Pago card form: takes the card payments on /checkout', 'a');
    expect(await text(page)).toContain('3 script(s) authorized.');
    expect(await reviewRowSources(page)).not.toEqual(expect.arrayContaining([authorized[0]]));
    await decideByKeyboard(page, [VENDOR_SCRIPTS[3]], '3DS helper we do not use', 'b');
    expect(await text(page)).toContain('1 script(s) blocked.');
    expect((await reviewRowSources(page)).sort()).toEqual([first, widget].sort());
    await accessible(page);

    const listed = (await dashboard.service.request('GET', `/api/v1/scripts?store_id=${store.id}`, { token })).body.data as Array<Record<string, unknown>>;
    const bySrc = (src: string) => listed.find((script) => script.src === src)!;
    // A person deciding in the dashboard decides by hand: `manual`, where an API client's decision is `api`.
    const byHand = { authorization_method: 'manual', authorized_by: `user:${OWNER}` };
    for (const src of authorized) expect(bySrc(src)).toMatchObject({ status: 'authorized', ...byHand, justification: 'Mercado Pago card form: takes the card payments on /checkout' });
    expect(bySrc(VENDOR_SCRIPTS[3])).toMatchObject({ status: 'blocked', ...byHand, justification: '3DS helper we do not use' });
    expect((await dashboard.service.request('GET', `/api/v1/scripts/${bySrc(VENDOR_SCRIPTS[3]).id as string}`, { token })).body).toMatchObject({ status: 'blocked', ...byHand });

    // A decision without its CSRF token is refused, and nothing is decided.
    const forged = await dashboard.postForm(page, '/dashboard/review', `decision=block&justification=x&script.${bySrc(first).id as string}=on`, false);
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('The form expired or did not come from this dashboard.');
    // A blank justification past the browser's check: the command refuses it, in its words, for that script.
    const blank = await dashboard.postForm(page, '/dashboard/review', `decision=authorize&justification=%20%20&script.${bySrc(first).id as string}=on`, true);
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('0 decided, 1 refused:');
    // The service's refusal by its reason, in the page's language.
    expect(blank.text).toContain(`<code>${first}</code>: a justification is required: say why this script is needed on the payment page.`);

    await pressByKeyboard(page, 'Inventory');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/inventory`);
    await pressByKeyboard(page, VENDOR_SCRIPTS[3]);
    const script = await text(page);
    expect(script).toContain(VENDOR_SCRIPTS[3]);
    expect(script).toContain('Blocked');
    expect(script).toContain(`user:${OWNER} (manual)`);
    expect(script).toContain('3DS helper we do not use');
    expect(await page.$$eval('#hash-timeline tbody tr', (rows) => rows.map((row) => row.querySelector('code')!.textContent))).toEqual([sri(VENDOR_SCRIPTS[3])]);
    expect(await page.$$eval('#script-pages li', (items) => items.map((item) => item.textContent))).toEqual(['/checkout']);
    expect(await page.$eval('#block-rules', (list) => list.textContent)).toContain('domain: sdk.mercadopago.com');
    expect(script).toContain('the policy Recommend known payment providers (version 1) recommended: authorize. Why: Payment provider Mercado Pago on sdk.mercadopago.com');
    await accessible(page);
    await screenshot(page, 'script', { fullPage: true });

    await pressByKeyboard(page, 'Audit log');
    const scriptDecisions = (await tableRows(page, '#audit-log')).map((cells) => cells.slice(1)).filter(([, action]) => action.startsWith('script.'));
    expect(scriptDecisions.map(([actor, action]) => [actor, action])).toEqual([
      [`user:${OWNER}`, 'script.blocked'],
      [`user:${OWNER}`, 'script.authorized'],
      [`user:${OWNER}`, 'script.authorized'],
      [`user:${OWNER}`, 'script.authorized'],
    ]);
    expect(scriptDecisions[0][3]).toContain('3DS helper we do not use');

    // The inventory of the store's checkout: the widget seen only on /cart is not on it.
    await page.goto(`${dashboard.base}/dashboard/inventory?store_id=${store.id}`);
    await page.select('#payment_page_id', (await page.$eval('#payment_page_id option:nth-child(2)', (option) => (option as unknown as { value: string }).value)));
    await pressByKeyboard(page, 'Apply the filter');
    const shown = await page.$$eval('#inventory tbody tr', (rows) => rows.map((row) => [row.getAttribute('data-script-id'), row.querySelector('a')!.textContent]));
    expect(shown.map(([, src]) => src).sort()).toEqual([...VENDOR_SCRIPTS, first].sort());
    await accessible(page);
    await screenshot(page, 'inventory', { fullPage: true });

    const downloads = mkdtempSync(join(tmpdir(), 'pss-inventory-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, browserContextId: page.browserContext().id });
    await page.focus('a[download]');
    await page.keyboard.press('Enter');
    const file = await eventually(() => readdirSync(downloads).find((name) => name.endsWith('.csv')), Boolean);
    expect(file).toMatch(/^inventory-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(join(downloads, file!), 'utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('\uFEFFid,store_id,src,type,category,vendor_id,status,integrity_status,current_hash,sri_hash,size_bytes,first_seen_at,last_seen_at,sightings,sessions_count,authorized_by,justification,expires_at');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3))).toEqual(shown.map(([id, src]) => [id, store.id, src]));

    // A cursor neither list gave (an edited address) is said so, with the way back to the first page.
    expect((await page.goto(`${dashboard.base}/dashboard/inventory?cursor=edited`))!.status()).toBe(400);
    expect(await text(page)).toContain('This page of the inventory no longer exists. Start from the first.');
    expect(await page.$eval('nav[aria-label="Pages of the inventory"] a', (link) => link.textContent)).toBe('First page');
    expect((await page.goto(`${dashboard.base}/dashboard/review?cursor=edited`))!.status()).toBe(400);
    expect(await text(page)).toContain('This page of the inbox no longer exists. Start from the first.');

    await page.goto(`${dashboard.base}/dashboard/review?lang=pt-BR`);
    expect(await text(page)).toContain('Caixa de revisão');
    await accessible(page);
    await page.browserContext().close();

    // A viewer reads the inbox without a form, and a decision they post anyway is refused on the server.
    const viewerCode = await dashboard.seatMember(org.id, 'viewer@shop.example', { kind: 'viewer' });
    const { page: viewer } = await dashboard.personWithPasskeyDevice();
    await viewer.goto(`${dashboard.base}/dashboard/sign-in?lang=en`);
    await signInWithCode(viewer, 'viewer@shop.example', viewerCode);
    await viewer.goto(`${dashboard.base}/dashboard/review`);
    expect(await viewer.$$('form[data-review-group]')).toEqual([]);
    expect(await text(viewer)).toContain(first);
    await accessible(viewer);
    const refused = await dashboard.postForm(viewer, '/dashboard/review', `decision=authorize&justification=Mine&script.${bySrc(first).id as string}=on`, true);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Your role does not allow this.');
    const stillOpen = (await dashboard.service.request('GET', `/api/v1/scripts/${bySrc(first).id as string}`, { token })).body;
    expect(stillOpen.status).toBe('needs_review');
    await viewer.browserContext().close();
    expect(dashboard.violations).toEqual([]);
  }, 180_000);
});
