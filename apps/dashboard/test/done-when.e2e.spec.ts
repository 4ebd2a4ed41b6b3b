import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { OUTBOX_EXTENSION, type OutboxFile } from '@pss/mail';
import { accessible, DashboardInChromium, describeInChromium, isRevocation, pressByKeyboard, tableRows, text, timedFromSubmission } from './dashboard-browser';

const ROOT = resolve(__dirname, '../../..');
const OWNER = 'me@shop.example';
const VIEWER = 'viewer@shop.example';
const OWNER_ONLY = { en: 'Only the organization owner can manage tokens.', 'pt-BR': 'Apenas o proprietário da organização pode gerenciar tokens.' };

/**
 * Issue 31's "Done when", walked once as a new user would on a real port: the admin CLI as typed in a shell
 * (against the running service's data directory, through its control socket), Chromium with a passkey device
 * per person, `curl`'s request made with fetch. Every page visited is checked with axe-core, and none may
 * report a CSP violation.
 */
describeInChromium("issue 31's Done when, as a new user (embedded)", () => {
  const dashboard = DashboardInChromium.forSuite();

  /**
   * `npm run -s admin -- …` in a shell whose DATA_DIR is the service's: the CLI finds the service's control socket
   * there. Asynchronous, never spawnSync: the service answering the socket runs in this very process.
   */
  async function admin(...args: string[]): Promise<any> {
    const { OPS_SOCKET: _elsewhere, ...shell } = process.env;
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'admin', '--', ...args], { cwd: ROOT, env: { ...shell, DATA_DIR: dashboard.service.config.dataDir } });
    return JSON.parse(stdout);
  }

  /** What `curl -H "Authorization: Bearer <token>" <base>/api/v1/stores` gets. */
  async function curlStores(token: string): Promise<{ status: number; authenticate: string | null; body: unknown }> {
    const answer = await fetch(`${dashboard.base}/api/v1/stores`, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, authenticate: answer.headers.get('www-authenticate'), body: await answer.json() };
  }

  /** The e-mails in $DATA_DIR/outbox, by file name. */
  const outbox = (): Map<string, OutboxFile> => {
    const folder = join(dashboard.service.config.dataDir, 'outbox');
    const names = readdirSync(folder).filter((name) => name.endsWith(OUTBOX_EXTENSION));
    return new Map(names.map((name) => [name, JSON.parse(readFileSync(join(folder, name), 'utf8')) as OutboxFile]));
  };

  /** Opens an invitation link, accepts it with a new passkey and goes on past the recovery codes to the home page. */
  async function accept(page: Page, link: string, invitation: string): Promise<void> {
    await page.goto(`${link}?lang=en`);
    expect(await text(page)).toContain(invitation);
    await accessible(page);
    await pressByKeyboard(page, 'Accept and create my passkey');
    expect(await page.$$('#recovery-codes code')).toHaveLength(10);
    await accessible(page);
    await pressByKeyboard(page, 'I saved the codes, continue');
    await accessible(page);
  }

  it('takes a new owner from the CLI link to a passkey, a token curl uses until it is revoked, a refused viewer, a tested e-mail channel and the audit log', async () => {
    const org = await admin('org', 'create', '--name', 'Shop', '--owner-email', OWNER);
    expect(org).toMatchObject({ name: 'Shop', invitation_link: expect.stringMatching(new RegExp(`^${dashboard.base}/dashboard/invitations/[A-Za-z0-9_-]{43}$`)) });

    const owner = await dashboard.personWithPasskeyDevice();
    await accept(owner.page, org.invitation_link, `You were named the owner of the organization "Shop" (${OWNER}).`);
    expect(await text(owner.page)).toContain(`Signed in as ${OWNER}`);

    // A read-only token, by keyboard; the passkey was proved a moment ago, so no second check is asked.
    await pressByKeyboard(owner.page, 'API tokens');
    expect(await text(owner.page)).toContain('No tokens yet.');
    await accessible(owner.page);
    await pressByKeyboard(owner.page, 'Create a token');
    expect(owner.page.url()).toBe(`${dashboard.base}/dashboard/tokens/new`);
    await accessible(owner.page);
    await owner.page.focus('#name');
    await owner.page.keyboard.type('Auditor');
    await owner.page.focus('#scope-read-only');
    await owner.page.keyboard.press('Space');
    const issued = await pressByKeyboard(owner.page, 'Create the token');
    expect(issued!.headers()['cache-control']).toBe('no-store');
    const token = await owner.page.$eval('#new-token', (element) => element.textContent ?? '');
    expect(token).toMatch(/^pss_tok_[0-9a-f]{24}_[0-9a-f]{32}$/);
    await accessible(owner.page);
    expect(await curlStores(token)).toEqual({ status: 200, authenticate: null, body: expect.objectContaining({ data: [] }) });

    await pressByKeyboard(owner.page, 'I copied the token, back to the list');
    expect(await text(owner.page)).not.toContain(token);
    await accessible(owner.page);
    await pressByKeyboard(owner.page, 'Revoke the token Auditor');
    await accessible(owner.page);
    // Timed from the browser sending the revocation to curl's answer, asked as soon as the revocation is answered.
    const { answer: refused, withinMs } = await timedFromSubmission(owner.page, 'Revoke the token', isRevocation, () => curlStores(token));
    expect(withinMs).toBeLessThan(1_000);
    expect(refused).toEqual({ status: 401, authenticate: expect.stringMatching(/^Bearer realm="[^"]+"$/), body: { error: { code: 'unauthorized', message: 'Invalid token' } } });
    expect((await tableRows(owner.page, 'main table')).map((row) => [row[0], row[5]])).toEqual([['Auditor', 'Revoked']]);
    await accessible(owner.page);

    // The owner invites a viewer, who joins with a passkey of their own.
    await pressByKeyboard(owner.page, 'Members');
    await accessible(owner.page);
    await owner.page.focus('#invite-email');
    await owner.page.keyboard.type(VIEWER);
    await pressByKeyboard(owner.page, 'Send the invitation');
    expect(await text(owner.page)).toContain(`The invitation was sent to ${VIEWER}.`);
    await accessible(owner.page);
    const viewerLink = await owner.page.$eval('#invitation-link', (element) => element.textContent ?? '');
    const viewer = await dashboard.personWithPasskeyDevice();
    await accept(viewer.page, viewerLink, `You were invited to the organization "Shop" (${VIEWER}) with the role: Viewer.`);
    expect(await text(viewer.page)).toContain(`Signed in as ${VIEWER}`);

    // The viewer sees the token button, and using it is refused with the spec's message, in either language.
    await pressByKeyboard(viewer.page, 'API tokens');
    expect(await text(viewer.page)).toContain(OWNER_ONLY.en);
    await accessible(viewer.page);
    const viewerRefused = await pressByKeyboard(viewer.page, 'Create a token');
    expect(viewerRefused!.status()).toBe(403);
    expect(await viewer.page.$eval('main [role="alert"]', (element) => element.textContent)).toBe(OWNER_ONLY.en);
    await accessible(viewer.page);
    const inPortuguese = await viewer.page.goto(`${dashboard.base}/dashboard/tokens/new?lang=pt-BR`);
    expect(inPortuguese!.status()).toBe(403);
    expect(await viewer.page.$eval('main [role="alert"]', (element) => element.textContent)).toBe(OWNER_ONLY['pt-BR']);
    await accessible(viewer.page);

    // An e-mail channel with two recipients; its test lands in the outbox and is its newest delivery.
    await pressByKeyboard(owner.page, 'E-mail channels');
    await accessible(owner.page);
    await pressByKeyboard(owner.page, 'New e-mail channel');
    expect(owner.page.url()).toBe(`${dashboard.base}/dashboard/channels/new`);
    await accessible(owner.page);
    await owner.page.focus('#name');
    await owner.page.keyboard.type('Security team');
    await owner.page.focus('#recipients');
    await owner.page.keyboard.type('ana@shop.example');
    await owner.page.keyboard.press('Enter');
    await owner.page.keyboard.type('bruno@shop.example');
    await pressByKeyboard(owner.page, 'Create the channel');
    expect(await text(owner.page)).toContain('Channel "Security team" created.');
    await accessible(owner.page);
    const mailedBefore = outbox();
    await pressByKeyboard(owner.page, 'Send a test e-mail');
    expect(owner.page.url()).toMatch(new RegExp(`^${dashboard.base}/dashboard/channels/[0-9a-f-]{36}/deliveries$`));
    const tests = [...outbox()].filter(([name]) => !mailedBefore.has(name)).map(([, mail]) => mail);
    expect(tests.map((mail) => mail.to).sort()).toEqual(['ana@shop.example', 'bruno@shop.example']);
    expect(tests.every((mail) => mail.subject.startsWith('Payment Page Script Security: '))).toBe(true);
    expect(await tableRows(owner.page, '#deliveries')).toEqual([
      [expect.any(String), 'test', expect.stringMatching(/^evt_/), expect.stringMatching(/^[0-9a-f-]{36}$/), '1', 'Delivered', '—', expect.stringMatching(/^\d+ ms$/), '—'],
    ]);
    await accessible(owner.page);

    // The audit log, newest first: every step above and who took it, after the default policies a new organization gets.
    await pressByKeyboard(owner.page, 'Audit log');
    expect((await tableRows(owner.page, '#audit-log')).map(([, actor, action, target]) => [actor, action, target]).reverse()).toEqual([
      ['system', 'policy.created', 'policy: Block hosts in the threat list'],
      ['system', 'policy.created', 'policy: Recommend first-party scripts that touch no sensitive field'],
      ['system', 'policy.created', 'policy: Recommend known payment providers'],
      ['system', 'policy.created', 'policy: Review everything else'],
      [`user:${OWNER}`, 'member.joined', `member: ${OWNER}`],
      [`user:${OWNER}`, 'token.created', 'token: Auditor'],
      [`user:${OWNER}`, 'token.revoked', 'token: Auditor'],
      [`user:${OWNER}`, 'member.invited', `member: ${VIEWER}`],
      [`user:${VIEWER}`, 'member.joined', `member: ${VIEWER}`],
      [`user:${OWNER}`, 'channel.created', 'channel: Security team'],
    ]);
    await accessible(owner.page);

    await owner.context.close();
    await viewer.context.close();
    expect(dashboard.violations).toEqual([]);
  }, 300_000);
});
