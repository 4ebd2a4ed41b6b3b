import type { Page } from 'puppeteer-core';
import { accessible, copiedByButton, DashboardInChromium, describeInChromium, isRevocation, ownerBackWithRecoveryCode, pressByKeyboard, screenshot, signInWithCode, text, timedFromSubmission } from './dashboard-browser';


const OWNER_ONLY = 'Only the organization owner can manage tokens.';

/**
 * The API tokens pages in Chromium, by keyboard: the owner, back with a recovery code, proves a passkey again
 * (step-up) to create a read-only token the API then answers, and revokes it; a store owner sees the button and
 * is refused with the spec's message. Every page is checked with axe-core and must cause no CSP violation.
 */
describeInChromium('dashboard API tokens in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();
  let orgId: string;

  const goTo = (page: Page, path: string) => page.goto(`${dashboard.base}${path}?lang=en`);
  const listStores = (token: string) => dashboard.service.request('GET', '/api/v1/stores', { token });
  const tokenRows = (page: Page) => page.$$eval('main tbody tr', (rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell: { textContent: string | null }) => cell.textContent?.trim() ?? '')));

  it('lets the owner create a read-only token after a passkey check, shown once and never cached, and revoke it at once', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': 'me@shop.example' });
    orgId = org.id;
    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, 'me@shop.example');

    await pressByKeyboard(page, 'API tokens');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/tokens`);
    expect(await text(page)).toContain('No tokens yet.');
    await accessible(page);

    // Signed in with a code, not a passkey: creating a token asks for the passkey first, then comes back.
    await pressByKeyboard(page, 'Create a token');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/step-up?return=%2Fdashboard%2Ftokens%2Fnew`);
    await accessible(page);
    await pressByKeyboard(page, 'Confirm with the passkey');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/tokens/new`);
    await accessible(page);

    const refused = await pressByKeyboard(page, 'Create the token');
    expect(refused!.status()).toBe(400);
    expect(await text(page)).toContain('Give the token a name.');
    expect(await text(page)).toContain('Choose at least one scope.');
    await accessible(page);
    await screenshot(page, 'token-create', { fullPage: true });

    await page.type('#name', 'Auditor (read-only)');
    await page.focus('#scope-read-only');
    await page.keyboard.press('Space');
    await page.select('#validity', 'none');
    const created = await pressByKeyboard(page, 'Create the token');
    expect(created!.status()).toBe(200);
    expect(created!.headers()['cache-control']).toBe('no-store');
    const token = await page.$eval('#new-token', (element) => element.textContent ?? '');
    expect(token).toMatch(/^pss_tok_[0-9a-f]{24}_[0-9a-f]{32}$/);
    expect(await copiedByButton(page, 'new-token')).toBe(token);
    await accessible(page);
    await screenshot(page, 'token-issued');

    expect((await listStores(token)).status).toBe(200);

    await pressByKeyboard(page, 'I copied the token, back to the list');
    expect(await text(page)).not.toContain(token);
    expect(await tokenRows(page)).toEqual([
      ['Auditor (read-only)', token.slice(0, 32), 'stores:read, scripts:read, policies:read, alerts:read, reports:read, usage:read', expect.any(String), 'no expiry', 'Active', 'Revoke'],
    ]);
    await accessible(page);

    // A form without its CSRF token is refused, and no token comes of it.
    const forged = await dashboard.postForm(page, '/dashboard/tokens', 'name=Forged&scope.stores%3Aread=on&validity=30', false);
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('The form expired or did not come from this dashboard.');

    await pressByKeyboard(page, 'Revoke the token Auditor (read-only)');
    expect(await text(page)).toContain(`Revoke "Auditor (read-only)" (${token.slice(0, 32)})?`);
    await accessible(page);
    // Timed from the browser sending the revocation, not from the key press: the Tab walk is the browser's time.
    const { answer: afterRevoke, withinMs } = await timedFromSubmission(page, 'Revoke the token', isRevocation, () => listStores(token));
    expect(withinMs).toBeLessThan(1_000);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body).toEqual({ error: { code: 'unauthorized', message: 'Invalid token' } });

    expect(page.url()).toBe(`${dashboard.base}/dashboard/tokens`);
    expect(await text(page)).toContain('Token "Auditor (read-only)" revoked.');
    const [revoked] = await tokenRows(page);
    expect(revoked.slice(0, 2)).toEqual(['Auditor (read-only)', token.slice(0, 32)]);
    expect(revoked.slice(5)).toEqual(['Revoked', '']);
    await accessible(page);
    await screenshot(page, 'tokens', { fullPage: true });

    await page.goto(`${dashboard.base}/dashboard/tokens?lang=pt-BR`);
    expect(await text(page)).toContain('Revogado');
    await accessible(page);
    await screenshot(page, 'tokens.pt-BR', { fullPage: true });
    await page.browserContext().close();
    expect(dashboard.violations).toEqual([]);
  }, 120_000);

  it("shows a store owner the create button, then refuses them with the spec's message", async () => {
    const code = await dashboard.seatMember(orgId, 'stores@shop.example', { kind: 'store-owner', storeIds: [] });
    const { page } = await dashboard.personWithPasskeyDevice();
    await goTo(page, '/dashboard/sign-in');
    await signInWithCode(page, 'stores@shop.example', code);

    await goTo(page, '/dashboard/tokens');
    expect(await text(page)).toContain(OWNER_ONLY);
    expect(await page.$$('main tbody tr')).toHaveLength(0);
    await accessible(page);
    await screenshot(page, 'tokens-store-owner');

    const refused = await pressByKeyboard(page, 'Create a token');
    expect(refused!.status()).toBe(403);
    expect(await text(page)).toContain(OWNER_ONLY);
    await accessible(page);

    // Even with a good form and its CSRF token, creating (and revoking) is refused on the server.
    const create = await dashboard.postForm(page, '/dashboard/tokens', 'name=Mine&scope.stores%3Aread=on&validity=30', true);
    expect(create.status).toBe(403);
    expect(create.text).toContain(OWNER_ONLY);
    const revoke = await dashboard.postForm(page, `/dashboard/tokens/${'pss_tok_'.padEnd(32, '0')}/revoke`, '', true);
    expect(revoke.status).toBe(403);
    expect(revoke.text).toContain(OWNER_ONLY);
    await page.browserContext().close();
    expect(dashboard.violations).toEqual([]);
  }, 60_000);
});
