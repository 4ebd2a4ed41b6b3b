import type { Page } from 'puppeteer-core';
import { ProjectionRunner } from '@pss/projections';
import { eventually, sri } from '@pss/testkit';
import type { Role } from '../src/access/roles';
import { accessible, DashboardInChromium, describeInChromium, ownerBackWithRecoveryCode, pressByKeyboard, screenshot, signInWithCode, tableRows, text } from './dashboard-browser';

const OWNER = 'me@shop.example';
const TRACKER_HOST = 'cdn.tracker-x.io';
const TRACKERS = [`https://${TRACKER_HOST}/t.js`, `https://${TRACKER_HOST}/pixel.js`];
const OTHER = 'https://static.other-cdn.io/app.js';

/**
 * Policies and rules in Chromium, by keyboard (issue 32): the owner creates an organization policy (a priority and a
 * domain the command refuses first, in its words), edits it into a new version, simulates it on a store fed through the SDK's
 * HTTP endpoint (its three lists as tables), applies it and finds the scripts decided in the API; then creates a
 * block rule and deactivates it. axe and 0 CSP violations on every page; Apply posted without its CSRF token refused.
 */
describeInChromium('dashboard policies and rules in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  const valueOf = (page: Page, selector: string) => page.$eval(selector, (element) => (element as unknown as { value: string }).value);
  const shown = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent);
  const typeInto = async (page: Page, selector: string, typed: string) => {
    await page.focus(selector);
    await page.keyboard.type(typed);
  };
  /** Takes back the last `count` characters of a field by keyboard. */
  const erase = async (page: Page, selector: string, count: number) => {
    await page.focus(selector);
    await page.keyboard.press('End');
    for (let n = 0; n < count; n += 1) await page.keyboard.press('Backspace');
  };
  /** A member with `role`, signed in with their recovery code in a browser profile of their own. */
  const signedInAs = async (orgId: string, email: string, role: Role): Promise<Page> => {
    const code = await dashboard.seatMember(orgId, email, role);
    const { page } = await dashboard.personWithPasskeyDevice();
    await page.goto(`${dashboard.base}/dashboard/sign-in?lang=en`);
    await signInWithCode(page, email, code);
    return page;
  };
  const sources = (page: Page, table: string) => tableRows(page, table).then((rows) => rows.map(([src]) => src).sort());

  it('creates, edits, simulates and applies a policy, and creates and deactivates a rule, by keyboard', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const { token } = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:read,stores:write,scripts:read' });
    const store = await dashboard.service.createStore(token, { name: 'Loja', payment_pages: [{ url_pattern: '/checkout', payment_methods: ['card'] }] });
    const checkout = [...TRACKERS, OTHER].map((src) => ({ kind: 'script', src, hash: sri(src), hash_source: 'sdk', size_bytes: 1000 }));
    expect((await dashboard.service.reportSdk(store.sdk_key, checkout)).status).toBe(202);
    const scripts = () =>
      eventually(
        async () => {
          await dashboard.service.app.get(ProjectionRunner).catchUp();
          return (await dashboard.service.request('GET', `/api/v1/scripts?store_id=${store.id}`, { token })).body.data as Array<Record<string, unknown>>;
        },
        (found) => found.length === 3,
      );
    await scripts();

    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);
    await pressByKeyboard(page, 'Policies');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/policies`);
    // The organization's default policies, in evaluation order, each with its mode, version and scope.
    const defaults = await tableRows(page, '#policies');
    expect(defaults.length).toBeGreaterThan(0);
    expect(defaults.every((cells) => cells[4] === '1' && cells[5] === 'Whole organization')).toBe(true);
    await accessible(page);
    await screenshot(page, 'policies', { fullPage: true });

    await pressByKeyboard(page, 'New policy');
    // On a pt-BR page a refused match item is the catalogue's sentence, keyed by the validation's reason, not the command's English.
    await page.goto(`${dashboard.base}/dashboard/policies/new?lang=pt-BR`);
    await typeInto(page, '#name', 'Tracker CDN');
    await typeInto(page, '#match-domain', `https://${TRACKER_HOST}`);
    expect((await pressByKeyboard(page, 'Criar a política'))!.status()).toBe(400);
    expect(await shown(page, '#match-domain-error')).toBe('cada item deve ser um nome de servidor, sem https:// nem caminho, podendo começar com *.');
    await page.goto(`${dashboard.base}/dashboard/policies/new?lang=en`);
    await accessible(page);
    await typeInto(page, '#name', 'Tracker CDN');
    await page.focus('#action');
    await page.keyboard.press('ArrowDown');
    expect(await valueOf(page, '#action')).toBe('block');
    await erase(page, '#priority', '100'.length);
    await typeInto(page, '#priority', 'first');
    await typeInto(page, '#match-domain', `https://${TRACKER_HOST}`);
    // The command judges the form, and the page says it beside each field, keeping what was typed: a refusal the shared
    // validation gives a reason for in the page's language, any other in the command's words.
    expect((await pressByKeyboard(page, 'Create the policy'))!.status()).toBe(400);
    expect(await shown(page, '#priority-error')).toBe('priority must be an integer');
    expect(await shown(page, '#match-domain-error')).toBe('each item must be a host name, without https:// or a path, optionally starting with *.');
    expect(await valueOf(page, '#match-domain')).toBe(`https://${TRACKER_HOST}`);
    await accessible(page);
    await screenshot(page, 'policy-create', { fullPage: true });
    await erase(page, '#priority', 'first'.length);
    await typeInto(page, '#priority', '5');
    await erase(page, '#match-domain', `https://${TRACKER_HOST}`.length);
    await typeInto(page, '#match-domain', TRACKER_HOST);
    await pressByKeyboard(page, 'Create the policy');
    expect(await text(page)).toContain('Policy Tracker CDN created.');
    expect(await shown(page, '#policy-version')).toContain('Version 1');
    const policyUrl = page.url();
    const policyPath = new URL(policyUrl).pathname;

    // What the policy decides changes: a new version.
    await typeInto(page, '#justification_template', 'Tracker on {domain}, not needed for payment');
    await pressByKeyboard(page, 'Save (version 1 is the one shown)');
    expect(await text(page)).toContain('Policy Tracker CDN saved; version 2.');
    expect(await shown(page, '#policy-version')).toContain('Version 2');
    await accessible(page);
    await screenshot(page, 'policy', { fullPage: true });

    await pressByKeyboard(page, 'Simulate');
    expect(await sources(page, '#would-block')).toEqual([...TRACKERS].sort());
    expect(await page.$('#would-authorize')).toBeNull();
    expect(await page.$('#would-review')).toBeNull();
    expect(await text(page)).toContain('1 script(s) would stay as they are.');
    await accessible(page);
    await screenshot(page, 'policy-simulation', { fullPage: true });

    // Apply without the form's CSRF token: refused, nothing decided.
    const forged = await dashboard.postForm(page, `${policyPath}/apply`, `store_id=${store.id}`, false);
    expect(forged.status).toBe(403);
    expect((await scripts()).every((script) => script.status !== 'blocked')).toBe(true);

    await pressByKeyboard(page, `Apply on Loja (${store.domain})`);
    expect(page.url()).toBe(policyUrl);
    expect(await text(page)).toContain('Policy applied: 0 authorized, 2 blocked, 0 to review, 1 unchanged.');
    const decided = await scripts();
    expect(decided.filter((script) => script.status === 'blocked').map((script) => script.src).sort()).toEqual([...TRACKERS].sort());

    await pressByKeyboard(page, 'Rules');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/rules`);
    await typeInto(page, '#value', 'static.other-cdn.io');
    await typeInto(page, '#label', 'Other CDN');
    await pressByKeyboard(page, 'Create the rule');
    expect(await text(page)).toContain('Rule Other CDN created.');
    const rulePath = new URL(page.url()).pathname;
    expect(await shown(page, '#rule-active')).toBe('Yes');
    await accessible(page);
    await screenshot(page, 'rule', { fullPage: true });
    await pressByKeyboard(page, 'Deactivate the rule');
    expect(await text(page)).toContain('Rule Other CDN deactivated.');
    expect(await shown(page, '#rule-active')).toBe('No');
    const rules = (await dashboard.service.request('GET', `/api/v1/rules?store_id=${store.id}`, { token })).body.data as Array<Record<string, unknown>>;
    expect(rules.find((rule) => rule.value === 'static.other-cdn.io')).toMatchObject({ type: 'block', target: 'domain', label: 'Other CDN', active: false });

    await pressByKeyboard(page, 'Back to the rules');
    expect((await tableRows(page, '#rules')).find((cells) => cells[0] === 'Other CDN')?.[4]).toBe('No');
    await accessible(page);
    await screenshot(page, 'rules', { fullPage: true });

    // Checked on the server: a viewer reads and simulates, and changes nothing; a store owner applies on their
    // store but does not change the organization's policy.
    const viewer = await signedInAs(org.id, 'viewer@shop.example', { kind: 'viewer' });
    await viewer.goto(policyUrl);
    expect(await text(viewer)).toContain('Your role lets you read this policy, not change it.');
    expect((await dashboard.postForm(viewer, `${policyPath}/simulate`, `store_id=${store.id}`, true)).status).toBe(200);
    expect((await dashboard.postForm(viewer, policyPath, 'name=Mine&action=authorize', true)).status).toBe(403);
    expect((await dashboard.postForm(viewer, `${policyPath}/apply`, `store_id=${store.id}`, true)).status).toBe(403);
    expect((await dashboard.postForm(viewer, `${rulePath}/deactivate`, '', true)).status).toBe(403);
    const storeOwner = await signedInAs(org.id, 'loja@shop.example', { kind: 'store-owner', storeIds: [store.id] });
    await storeOwner.goto(policyUrl);
    expect((await dashboard.postForm(storeOwner, policyPath, 'name=Mine&action=authorize', true)).status).toBe(403);
    expect((await dashboard.postForm(storeOwner, `${policyPath}/apply`, `store_id=${store.id}`, true)).status).toBe(303);
    expect((await scripts()).filter((script) => script.status === 'blocked')).toHaveLength(TRACKERS.length);

    // Each change is the person's, in the audit log.
    await pressByKeyboard(page, 'Audit log');
    const changes = (await tableRows(page, '#audit-log')).map((cells) => [cells[1], cells[2]]).filter(([, action]) => /^(policy|rule)\./.test(action));
    expect(changes).toEqual(expect.arrayContaining([[`user:${OWNER}`, 'policy.created'], [`user:${OWNER}`, 'policy.updated'], [`user:${OWNER}`, 'rule.created'], [`user:${OWNER}`, 'rule.updated']]));
    expect(dashboard.violations).toEqual([]);
  }, 240_000);
});
