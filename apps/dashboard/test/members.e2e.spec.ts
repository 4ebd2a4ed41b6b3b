import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { auditLog } from '@pss/dashboard-reads';
import { outboxDirectory } from '@pss/mail';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { DASHBOARD_MEMBERS, type MemberDocument } from '../src/access/members.read-model';
import { accessible, DashboardInChromium, describeInChromium, pressByKeyboard, screenshot, text } from './dashboard-browser';


/**
 * Members, as two people do it in Chromium, each with their own passkey device (a browser context and a CDP
 * virtual authenticator each): the owner invites a viewer, the viewer joins and is refused the owner's actions,
 * the owner makes them a store owner and hands the organization over, the new owner removes the former one,
 * whose session ends. Every page checked with axe-core, no CSP violation.
 */
describeInChromium('dashboard members in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  const personWithPasskeyDevice = () => dashboard.personWithPasskeyDevice();
  const redeem = async (page: Page, link: string): Promise<void> => {
    await page.goto(link);
    await pressByKeyboard(page, 'Accept and create my passkey');
    expect(await page.$$('#recovery-codes code')).toHaveLength(10);
  };
  const rowOf = (page: Page, email: string): Promise<string> =>
    page.$$eval('tbody tr', (rows, wanted) => rows.map((row) => (row as any).innerText as string).find((row) => row.startsWith(wanted)) ?? '', email);

  it('invites a viewer who joins with a passkey, is refused the owner’s actions, becomes store owner and then organization owner', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': 'me@shop.example' });
    const { token } = await dashboard.service.ops('token.create', { org: org.id, name: 'setup', scopes: 'stores:write,stores:read' });
    const store = await dashboard.service.createStore(token);
    const owner = await personWithPasskeyDevice();
    await redeem(owner.page, org.invitation_link as string);

    await owner.page.goto(`${dashboard.base}/dashboard/members`);
    expect(await rowOf(owner.page, 'me@shop.example')).toMatch(/^me@shop\.example\tOrganization owner\t\t1\t/);
    await accessible(owner.page);
    await screenshot(owner.page, 'members');
    // Handing the organization over to oneself, which no page offers, is a refusal in words, not a 500.
    const readStore = dashboard.service.app.get<symbol, ReadStore>(READ_STORE);
    const ownerId = (await readStore.collection<MemberDocument>(DASHBOARD_MEMBERS).findOne({ org_id: org.id, email: 'me@shop.example' }))!._id;
    const toSelf = await dashboard.postForm(owner.page, `/dashboard/members/${ownerId}/hand-over`, '', true);
    expect(toSelf.status).toBe(400);
    expect(toSelf.text).toContain('You are the organization owner already: hand it over to another member.');
    await owner.page.focus('#invite-email');
    await owner.page.keyboard.type('Viewer@Shop.example');
    const sent = await pressByKeyboard(owner.page, 'Send the invitation');
    expect(sent!.headers()['cache-control']).toBe('no-store');
    expect(await text(owner.page)).toContain('The invitation was sent to viewer@shop.example.');
    const link = await owner.page.$eval('#invitation-link', (element) => element.textContent ?? '');
    expect(link).toMatch(new RegExp(`^${dashboard.base}/dashboard/invitations/[A-Za-z0-9_-]{43}$`));
    await accessible(owner.page);
    await screenshot(owner.page, 'member-invited');
    const outbox = outboxDirectory(dashboard.service.config);
    const mails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'));
    expect(mails.filter((mail) => mail.includes(link) && mail.includes('viewer@shop.example'))).toHaveLength(1);

    const viewer = await personWithPasskeyDevice();
    await viewer.page.goto(link);
    expect(await text(viewer.page)).toContain('You were invited to the organization "Shop" (viewer@shop.example) with the role: Viewer.');
    await accessible(viewer.page);
    await redeem(viewer.page, link);
    await viewer.page.goto(`${dashboard.base}/dashboard/members`);
    expect(await rowOf(viewer.page, 'viewer@shop.example')).toMatch(/^viewer@shop\.example\tViewer\t\t1\t/);
    await accessible(viewer.page);
    await viewer.page.focus('#invite-email');
    await viewer.page.keyboard.type('friend@shop.example');
    const refused = await pressByKeyboard(viewer.page, 'Send the invitation');
    expect(refused!.status()).toBe(403);
    expect(await text(viewer.page)).toContain('Only the organization owner can manage members.');
    await accessible(viewer.page);
    const cookie = (await viewer.context.cookies()).find((candidate) => candidate.name === '__Host-pss-dashboard')!;
    const forbidden = await dashboard.service.request('GET', `/dashboard/members/anything`, { headers: { cookie: `${cookie.name}=${cookie.value}`, 'accept-language': 'en' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.text).toContain('Only the organization owner can manage members.');

    await owner.page.goto(`${dashboard.base}/dashboard/members`);
    await Promise.all([owner.page.waitForNavigation(), owner.page.click('a[aria-label="Manage viewer@shop.example"]')]);
    await accessible(owner.page);
    await screenshot(owner.page, 'member');
    await owner.page.click('input[value="store-owner"]');
    await owner.page.click(`input[name="store_${store.id}"]`);
    await pressByKeyboard(owner.page, 'Change the role');
    expect(await text(owner.page)).toContain("viewer@shop.example's role was changed.");
    expect(await rowOf(owner.page, 'viewer@shop.example')).toMatch(new RegExp(`^viewer@shop\\.example\\tStore owner\\t${store.domain}\\t1\\t`));
    await viewer.page.goto(`${dashboard.base}/dashboard`);
    expect(await text(viewer.page)).toContain('Store owner');

    await Promise.all([owner.page.waitForNavigation(), owner.page.click('a[aria-label="Manage viewer@shop.example"]')]);
    await pressByKeyboard(owner.page, 'Hand the organization over to this person');
    expect(await text(owner.page)).toContain('viewer@shop.example is now the organization owner.');
    const roles = await owner.page.$$eval('tbody tr td:nth-child(2)', (cells) => cells.map((cell) => cell.textContent));
    expect(roles.sort()).toEqual(['Organization owner', 'Viewer']);
    const formerOwnerForm = await owner.page.focus('#invite-email').then(() => owner.page.keyboard.type('late@shop.example')).then(() => pressByKeyboard(owner.page, 'Send the invitation'));
    expect(formerOwnerForm!.status()).toBe(403);

    // The new owner removes the former one, whose session ends at once.
    await viewer.page.goto(`${dashboard.base}/dashboard/members`);
    await Promise.all([viewer.page.waitForNavigation(), viewer.page.click('a[aria-label="Manage me@shop.example"]')]);
    const staleTab = await viewer.context.newPage();
    await staleTab.goto(viewer.page.url());
    await pressByKeyboard(viewer.page, 'Remove from the organization');
    expect(await text(viewer.page)).toContain('me@shop.example was removed from the organization.');
    // The same page left open in another tab changes the role of the member who left: a clear 404 in the language
    // the person switched to meanwhile, never a 500.
    await viewer.page.goto(`${dashboard.base}/dashboard/members?lang=pt-BR`);
    const gone = await pressByKeyboard(staleTab, 'Change the role');
    expect(gone!.status()).toBe(404);
    expect(await staleTab.$eval('main [role="alert"]', (element) => element.textContent)).toBe(
      'Esta pessoa não é (ou não é mais) membro desta organização: quem foi convidado entra na lista ao aceitar o convite.',
    );
    await accessible(staleTab);
    await owner.page.goto(`${dashboard.base}/dashboard/members`);
    expect(owner.page.url()).toBe(`${dashboard.base}/dashboard/sign-in`);

    const { entries } = await auditLog(readStore, org.id, { action: 'member' });
    expect(entries.map((entry) => [entry.actor, entry.action, entry.target.label]).reverse()).toEqual([
      ['user:me@shop.example', 'member.joined', 'me@shop.example'],
      ['user:me@shop.example', 'member.invited', 'viewer@shop.example'],
      ['user:viewer@shop.example', 'member.joined', 'viewer@shop.example'],
      ['user:me@shop.example', 'member.role_changed', 'viewer@shop.example'],
      ['user:viewer@shop.example', 'member.removed', 'me@shop.example'],
    ]);
    expect((await auditLog(readStore, org.id, { action: 'organization.handed_over' })).entries.map((entry) => entry.actor)).toEqual(['user:me@shop.example']);

    const csrfless = await dashboard.service.request('POST', '/dashboard/members/invitations', {
      headers: { cookie: `${cookie.name}=${cookie.value}`, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      body: 'email=other%40shop.example&role=viewer',
    });
    expect(csrfless.status).toBe(403);
    expect(csrfless.text).toContain('The form expired or did not come from this dashboard.');

    await owner.context.close();
    await viewer.context.close();
    expect(dashboard.violations).toEqual([]);
  }, 180_000);

  it("lets a partner's owner act in a child organization, whose pages then show the child's data, and switch back", async () => {
    const partner = await dashboard.service.createOrganization({ name: 'Agency', 'owner-email': 'boss@agency.example' });
    await dashboard.service.ops('org.create', { name: 'Client Shop', parent: partner.id, 'owner-email': 'owner@client.example' });
    const strangerOrg = await dashboard.service.createOrganization({ name: 'Stranger', 'owner-email': 'someone@else.example' });
    const { page, context } = await personWithPasskeyDevice();
    await redeem(page, partner.invitation_link as string);

    await page.goto(`${dashboard.base}/dashboard/organizations`);
    expect(await page.$$eval('tbody tr td:first-child', (cells) => cells.map((cell) => cell.textContent))).toEqual(['Client Shop']);
    await accessible(page);
    await screenshot(page, 'organizations');
    await pressByKeyboard(page, 'Act in Client Shop');
    expect(await text(page)).toContain('You now act in Client Shop.');
    expect(await text(page)).toMatch(/Organization\s+Client Shop/);

    // The child's members: none yet (its own owner is invited separately), and not the partner's owner.
    await page.goto(`${dashboard.base}/dashboard/members`);
    expect(await page.$$('tbody tr')).toHaveLength(0);
    await page.focus('#invite-email');
    await page.keyboard.type('clerk@client.example');
    await pressByKeyboard(page, 'Send the invitation');
    const clerkLink = await page.$eval('#invitation-link', (element) => element.textContent ?? '');
    const clerk = await personWithPasskeyDevice();
    await clerk.page.goto(clerkLink);
    expect(await text(clerk.page)).toContain('You were invited to the organization "Client Shop" (clerk@client.example)');
    await clerk.context.close();

    // Another organization than a child of the partner's: refused, whatever the form says.
    const cookie = (await context.cookies()).find((candidate) => candidate.name === '__Host-pss-dashboard')!;
    const csrf = await page.$eval('input[name="_csrf"]', (input) => input.getAttribute('value') ?? '');
    const stranger = await dashboard.service.request('POST', '/dashboard/organizations/act', {
      headers: { cookie: `${cookie.name}=${cookie.value}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${encodeURIComponent(csrf)}&org_id=${encodeURIComponent(strangerOrg.id)}`,
    });
    expect(stranger.status).toBe(404);

    await page.goto(`${dashboard.base}/dashboard/organizations`);
    await accessible(page);
    await pressByKeyboard(page, 'Back to Agency');
    expect(await text(page)).toMatch(/Organization\s+Agency/);
    await context.close();
    expect(dashboard.violations).toEqual([]);
  }, 120_000);
});
