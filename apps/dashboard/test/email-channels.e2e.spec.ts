import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type ChannelResource } from '@pss/contracts';
import { OUTBOX_EXTENSION, outboxDirectory, type OutboxFile } from '@pss/mail';
import { Access } from '../src/access/access.service';
import { recoveryCodeHash } from '../src/access/recovery-codes';
import type { MemberDocument } from '../src/access/members.read-model';
import type { Role } from '../src/access/roles';
import { accessible, DashboardInChromium, describeInChromium, pressByKeyboard, screenshot, tableRows, text } from './dashboard-browser';


const OWNER = 'me@shop.example';

/**
 * E-mail channels, their deliveries and the audit log in Chromium, by keyboard: the owner, back with a recovery
 * code, proves a passkey again to create a channel with two recipients, sends a test that lands in the outbox and
 * shows in the deliveries, changes and deletes it, and finds each step in the audit log with who did it. Every
 * page is checked with axe-core and must cause no CSP violation.
 */
describeInChromium('dashboard e-mail channels, deliveries and audit log in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  const mailsTo = (address: string): OutboxFile[] => {
    const outbox = outboxDirectory(dashboard.service.config);
    let names: string[] = [];
    try {
      names = readdirSync(outbox);
    } catch {
      // No mail sent yet: no outbox.
    }
    return names
      .filter((name) => name.endsWith(OUTBOX_EXTENSION))
      .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as OutboxFile)
      .filter((mail) => mail.to === address);
  };

  /** A form posted beside the browser with the session of `page`'s person, without its CSRF token. */
  async function postWithoutCsrf(page: Page, path: string, body: string) {
    const cookie = await dashboard.sessionCookie(page.browserContext());
    return dashboard.service.request('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', cookie }, body });
  }

  it('creates a channel with two recipients after a passkey check, tests it into the outbox and its deliveries, and the audit log names each step', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const issued = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:write,stores:read' });
    const store = await dashboard.service.createStore(issued.token, { name: 'Loja Centro' });
    const { page } = await dashboard.personWithPasskeyDevice();
    await page.goto(`${org.invitation_link as string}?lang=en`);
    await pressByKeyboard(page, 'Accept and create my passkey');
    const codes = await page.$$eval('#recovery-codes code', (elements) => elements.map((element) => element.textContent ?? ''));
    await pressByKeyboard(page, 'I saved the codes, continue');
    await pressByKeyboard(page, 'Sign out');
    await page.type('#email', OWNER);
    await page.type('#code', codes[0]);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

    await pressByKeyboard(page, 'E-mail channels');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/channels`);
    // A new store comes with its owner's e-mail channel.
    const storeChannel = ['Store owner e-mail', `Store Loja Centro (${store.domain})`, OWNER, 'High', 'Active', 'never', 'Deliveries'];
    expect(await tableRows(page, 'main table')).toEqual([storeChannel]);
    await accessible(page);

    // Signed in with a code, not a passkey: the creation form asks for the passkey first, then comes back.
    await pressByKeyboard(page, 'New e-mail channel');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/step-up?return=%2Fdashboard%2Fchannels%2Fnew`);
    await pressByKeyboard(page, 'Confirm with the passkey');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/channels/new`);
    expect(await page.$$eval('#store_id option', (options) => options.map((option) => option.textContent))).toEqual(['Whole organization', `Store Loja Centro (${store.domain})`]);
    await accessible(page);

    await page.type('#name', 'Security team');
    await page.type('#recipients', 'ana@shop.example\nnot-an-address\nbruno@shop.example');
    const refused = await pressByKeyboard(page, 'Create the channel');
    expect(refused!.status()).toBe(400);
    expect(await text(page)).toContain('The channel was not saved: correct the marked fields.');
    expect(await text(page)).toContain('Enter 1 to 5 valid e-mail addresses.');
    expect(await page.$eval('#recipients', (field) => field.getAttribute('aria-invalid'))).toBe('true');
    await accessible(page);
    await screenshot(page, 'channel-create', { fullPage: true });

    await page.$eval('#recipients', (field) => ((field as unknown as { value: string }).value = ''));
    await page.type('#recipients', 'Ana@Shop.example\nbruno@shop.example');
    await pressByKeyboard(page, 'Create the channel');
    expect(page.url()).toMatch(new RegExp(`^${dashboard.base}/dashboard/channels/[0-9a-f-]{36}$`));
    const channelId = page.url().split('/').pop()!;
    expect(await text(page)).toContain('Channel "Security team" created.');
    expect(await page.$eval('#recipients', (field) => (field as unknown as { value: string }).value)).toBe('ana@shop.example\nbruno@shop.example');
    await accessible(page);
    await screenshot(page, 'channel', { fullPage: true });

    // A form without its CSRF token is refused, and sends nothing.
    const forged = await postWithoutCsrf(page, `/dashboard/channels/${channelId}/test`, '');
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('The form expired or did not come from this dashboard.');
    expect(mailsTo('ana@shop.example')).toHaveLength(0);

    await pressByKeyboard(page, 'Send a test e-mail');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/channels/${channelId}/deliveries`);
    expect(mailsTo('ana@shop.example')).toHaveLength(1);
    expect(mailsTo('bruno@shop.example')).toHaveLength(1);
    expect(await text(page)).toContain('Test e-mail sent; it shows in the deliveries.');
    expect(await text(page)).toContain('The spec allows no resend');
    const [delivery, ...older] = await tableRows(page, '#deliveries');
    expect(older).toEqual([]);
    expect(delivery).toEqual([expect.any(String), 'test', expect.stringMatching(/^evt_/), expect.stringMatching(/^[0-9a-f-]{36}$/), '1', 'Delivered', '—', expect.stringMatching(/^\d+ ms$/), '—']);
    expect(await page.$$('main form button')).toHaveLength(0);
    await accessible(page);
    await screenshot(page, 'deliveries', { fullPage: true });

    await pressByKeyboard(page, 'Back to the channel');
    await page.$eval('#name', (field) => ((field as unknown as { value: string }).value = ''));
    await page.type('#name', 'Security');
    await pressByKeyboard(page, 'Save changes');
    expect(await text(page)).toContain('Channel "Security" changed.');

    await pressByKeyboard(page, 'Audit log');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/audit-log`);
    const log = (await tableRows(page, '#audit-log')).map(([, actor, action, target]) => [actor, action, target]);
    expect(log).toEqual([
      [`user:${OWNER}`, 'channel.updated', 'channel: Security'],
      [`user:${OWNER}`, 'channel.created', 'channel: Security team'],
      ...log.slice(2),
    ]);
    expect(log).toContainEqual([`api:${issued.prefix}`, 'store.created', `store: ${store.domain}`]);
    expect(log).toContainEqual(['admin-cli', 'token.created', 'token: setup']);
    await accessible(page);
    await screenshot(page, 'audit-log', { fullPage: true });

    // Filtered by the person and today's day (the filter's days are São Paulo's): only their channel's changes.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    await page.type('#actor', `user:${OWNER}`);
    await page.type('#action', 'channel');
    await page.$eval('#from', (field, day) => ((field as unknown as { value: string }).value = day), today);
    await page.$eval('#to', (field, day) => ((field as unknown as { value: string }).value = day), today);
    await pressByKeyboard(page, 'Apply the filter');
    expect((await tableRows(page, '#audit-log')).map((row) => row[2])).toEqual(['channel.updated', 'channel.created']);
    await accessible(page);

    const csvLink = await page.$eval('a[download]', (link) => link.getAttribute('href')!);
    const csv = await dashboard.service.request('GET', csvLink, { headers: { cookie: await dashboard.sessionCookie(page.browserContext()) } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('\uFEFFtime_utc,actor,action,target_type,target_id,target_label,details');
    expect(lines.slice(1, 3).map((line) => line.split(',').slice(1, 6))).toEqual([
      [`user:${OWNER}`, 'channel.updated', 'channel', channelId, 'Security'],
      [`user:${OWNER}`, 'channel.created', 'channel', channelId, 'Security team'],
    ]);
    expect(lines.slice(3)).toEqual(['']);

    // A day that is not one is refused on the page, naming the field.
    await page.goto(`${dashboard.base}/dashboard/audit-log?from=2026-02-30`);
    expect(await text(page)).toContain('Enter a valid day.');
    const stale = await page.goto(`${dashboard.base}/dashboard/audit-log?cursor=not-a-cursor`);
    expect(stale!.status()).toBe(400);
    expect(await text(page)).toContain('This page of the log no longer exists. Start from the first.');

    // More changes than a page: the next page continues where the first ended, with the same filter, and leads back.
    const bus = dashboard.service.app.get<Bus>(BUS);
    for (let change = 0; change < 50; change += 1) {
      await bus.request(COMMANDS.emailChannelUpdate, { orgId: org.id, id: channelId, input: { name: `Security ${change}` } }, { actor: `user:${OWNER}` });
    }
    await page.goto(`${dashboard.base}/dashboard/audit-log?actor=user%3A${encodeURIComponent(OWNER)}&action=channel`);
    const first = await tableRows(page, '#audit-log');
    expect(first).toHaveLength(50);
    await pressByKeyboard(page, 'Next page');
    expect((await tableRows(page, '#audit-log')).map((row) => row[2])).toEqual(['channel.updated', 'channel.created']);
    await accessible(page);
    await pressByKeyboard(page, 'First page');
    expect(await tableRows(page, '#audit-log')).toEqual(first);

    await page.goto(`${dashboard.base}/dashboard/channels/${channelId}`);
    await pressByKeyboard(page, 'Delete this channel');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/channels`);
    expect(await text(page)).toContain('Channel "Security 49" deleted.');
    expect(await tableRows(page, 'main table')).toEqual([storeChannel]);
    await page.goto(`${dashboard.base}/dashboard/audit-log?action=channel.deleted`);
    expect((await tableRows(page, '#audit-log')).map(([, actor, action]) => [actor, action])).toEqual([[`user:${OWNER}`, 'channel.deleted']]);

    await page.goto(`${dashboard.base}/dashboard/channels?lang=pt-BR`);
    expect(await tableRows(page, 'main table')).toEqual([[storeChannel[0], `Loja Loja Centro (${store.domain})`, OWNER, 'Alta', 'Ativo', 'nunca', 'Entregas']]);
    await accessible(page);
    await page.browserContext().close();
    expect(dashboard.violations).toEqual([]);
  }, 180_000);

  const RECOVERY_CODE = 'abcd-efgh-jkmn-pqrs';

  /** Redeems an invitation link's token as the invitation page does, with a passkey never used and one recovery code. */
  async function redeemInvitation(token: string): Promise<MemberDocument> {
    const access = dashboard.service.app.get(Access);
    const passkey = { id: randomBytes(16).toString('base64url'), publicKey: 'unused', counter: 0, transports: [], createdAt: new Date().toISOString(), lastUsedAt: null };
    return access.redeem((await access.openInvitation(token, new Date()))!, randomUUID(), passkey, [recoveryCodeHash(RECOVERY_CODE)], new Date());
  }

  /** A member the owner invited with `role`, signed in over HTTP with the recovery code: their session's cookie and CSRF token. */
  async function memberSession(orgId: string, owner: MemberDocument, email: string, role: Role): Promise<{ cookie: string; csrf: string }> {
    await redeemInvitation((await dashboard.service.app.get(Access).invite(orgId, owner, email, role, new Date())).token);
    const signInPage = await dashboard.service.request('GET', '/dashboard/sign-in');
    const anonymous = String(signInPage.headers['set-cookie']).split(';')[0];
    const signInCsrf = /name="_csrf" value="([^"]+)"/.exec(signInPage.text)![1];
    const signedIn = await dashboard.service.request('POST', '/dashboard/sign-in/recovery', {
      headers: { cookie: anonymous, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: signInCsrf, email, code: RECOVERY_CODE }).toString(),
    });
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] as string[] | string).find((header) => header.startsWith('__Host-pss-dashboard='))!.split(';')[0];
    const home = await dashboard.service.request('GET', '/dashboard', { headers: { cookie, 'accept-language': 'en' } });
    expect(home.text).toContain(`Signed in as ${email}`);
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(home.text)![1] };
  }

  it("checks each role on the server: a viewer reads channels only, a store owner manages their store's, neither reads the audit log", async () => {
    const org = await dashboard.service.createOrganization({ name: 'Roles', 'owner-email': 'owner@roles.example' });
    const owner = await redeemInvitation((org.invitation_link as string).split('/').pop()!);
    const issued = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:write' });
    const [theirs, another] = [await dashboard.service.createStore(issued.token), await dashboard.service.createStore(issued.token)];
    const channelOf = (orgId: string, storeId: string | null) =>
      dashboard.service.app
        .get<Bus>(BUS)
        .request<ChannelResource>(COMMANDS.emailChannelCreate, { orgId, input: { name: 'Store team', recipients: ['team@roles.example'], store_id: storeId } }, { actor: 'user:owner@roles.example' });
    const [theirChannel, otherChannel] = [await channelOf(org.id, theirs.id), await channelOf(org.id, another.id)];
    const stranger = await dashboard.service.createOrganization({ name: 'Other', 'owner-email': 'owner@other.example' });
    const foreignChannel = await channelOf(stranger.id, null);
    const as = (session: { cookie: string; csrf: string }) => ({
      get: (path: string) => dashboard.service.request('GET', path, { headers: { cookie: session.cookie, 'accept-language': 'en' } }),
      post: (path: string, form: Record<string, string> = {}) =>
        dashboard.service.request('POST', path, {
          headers: { cookie: session.cookie, 'accept-language': 'en', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: session.csrf, ...form }).toString(),
        }),
    });
    const create = (storeId: string) => ({ name: 'Mine', recipients: 'me@roles.example', store_id: storeId, min_severity: 'high', active: 'on' });

    const viewer = as(await memberSession(org.id, owner, 'viewer@roles.example', { kind: 'viewer' }));
    const list = await viewer.get('/dashboard/channels');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Store team');
    expect(list.text).not.toContain('New e-mail channel');
    // The audit log is the organization owner's: not in anyone else's navigation, and refused if asked for.
    expect(list.text).not.toContain('href="/dashboard/audit-log"');
    expect((await viewer.get('/dashboard/channels/new')).status).toBe(403);
    expect((await viewer.post('/dashboard/channels', create('organization'))).status).toBe(403);
    const readOnly = await viewer.get(`/dashboard/channels/${theirChannel.id}`);
    expect(readOnly.text).toContain('Your role lets you see this channel, not change it.');
    expect(readOnly.text).not.toContain('Send a test e-mail');
    for (const action of ['', '/test', '/delete']) expect((await viewer.post(`/dashboard/channels/${theirChannel.id}${action}`, create(theirs.id))).status).toBe(403);
    expect((await viewer.get(`/dashboard/channels/${theirChannel.id}/deliveries`)).status).toBe(200);
    expect((await viewer.get('/dashboard/audit-log')).status).toBe(403);
    expect((await viewer.get('/dashboard/audit-log.csv')).status).toBe(403);

    const storeOwner = as(await memberSession(org.id, owner, 'stores@roles.example', { kind: 'store-owner', storeIds: [theirs.id] }));
    expect((await storeOwner.post('/dashboard/channels', create('organization'))).status).toBe(403);
    expect((await storeOwner.post('/dashboard/channels', create(another.id))).status).toBe(403);
    // Their own store's: allowed, once they prove a passkey (they signed in with a code).
    const mine = await storeOwner.post('/dashboard/channels', create(theirs.id));
    expect(mine.status).toBe(303);
    expect(mine.headers.location).toBe('/dashboard/step-up?return=%2Fdashboard%2Fchannels%2Fnew');
    const tested = await storeOwner.post(`/dashboard/channels/${theirChannel.id}/test`);
    expect(tested.headers.location).toBe(`/dashboard/channels/${theirChannel.id}/deliveries`);
    expect(mailsTo('team@roles.example')).toHaveLength(1);
    expect((await storeOwner.post(`/dashboard/channels/${otherChannel.id}/test`)).status).toBe(403);
    expect(mailsTo('team@roles.example')).toHaveLength(1);
    expect((await storeOwner.get('/dashboard/audit-log')).status).toBe(403);
    // Another organization's channel is not found, as a missing one.
    expect((await storeOwner.get(`/dashboard/channels/${foreignChannel.id}`)).status).toBe(404);
    expect((await storeOwner.get(`/dashboard/channels/${foreignChannel.id}/deliveries`)).status).toBe(404);
  }, 60_000);
});
