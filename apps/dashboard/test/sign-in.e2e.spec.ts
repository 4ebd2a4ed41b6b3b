import { accessible, DashboardInChromium, describeInChromium, pressByKeyboard, screenshot, text } from './dashboard-browser';


/**
 * The owner's way in, as a person does it in Chromium with a passkey (CDP's virtual authenticator), by keyboard:
 * the invitation link, the redeem button, the recovery codes, sign-out, sign-in with the passkey and with a
 * recovery code. Every page is checked with axe-core and must cause no CSP violation.
 */
describeInChromium('dashboard sign-in in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  const personWithPasskeyDevice = () => dashboard.personWithPasskeyDevice();

  it('takes the owner from the invitation link to the dashboard with a passkey, and back in with it or a recovery code', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': 'me@shop.example' });
    const link = org.invitation_link as string;
    expect(link).toMatch(new RegExp(`^${dashboard.base}/dashboard/invitations/[A-Za-z0-9_-]{43}$`));
    const { context, page } = await personWithPasskeyDevice();

    const invitation = await page.goto(link);
    expect(invitation!.headers()['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; require-trusted-types-for 'script'; report-uri /dashboard/csp-reports; report-to dashboard-csp",
    );
    expect(await text(page)).toContain('You were named the owner of the organization "Shop" (me@shop.example).');
    await accessible(page);
    await screenshot(page, 'invitation');

    const redeemed = await pressByKeyboard(page, 'Accept and create my passkey');
    expect(redeemed!.headers()['cache-control']).toBe('no-store');
    const codes = await page.$$eval('#recovery-codes code', (elements) => elements.map((element) => element.textContent ?? ''));
    expect(codes).toHaveLength(10);
    await accessible(page);
    await screenshot(page, 'recovery-codes');

    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-pss-dashboard');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    await page.goto(`${dashboard.base}/dashboard`);
    expect(await text(page)).toContain('Signed in as me@shop.example');
    expect(await text(page)).toContain('Organization owner');
    await accessible(page);
    await screenshot(page, 'home');

    await pressByKeyboard(page, 'Sign out');
    expect(await text(page)).toContain('You signed out.');
    // The old session id is ended on the server: replaying it finds no session.
    const replayed = await dashboard.service.request('GET', '/dashboard', { headers: { cookie: `__Host-pss-dashboard=${session!.value}` } });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.location).toBe('/dashboard/sign-in');
    await accessible(page);
    await screenshot(page, 'sign-in');

    await pressByKeyboard(page, 'Sign in with a passkey');
    expect(page.url()).toBe(`${dashboard.base}/dashboard`);
    expect(await text(page)).toContain('Signed in as me@shop.example');
    const rotated = (await context.cookies()).find((cookie) => cookie.name === '__Host-pss-dashboard');
    expect(rotated!.value).not.toBe(session!.value);

    await pressByKeyboard(page, 'Sign out');
    await page.focus('#email');
    await page.keyboard.type('ME@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(codes[3].toUpperCase());
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await text(page)).toContain('You signed in with a recovery code; 9 remain.');

    await pressByKeyboard(page, 'Sign out');
    await page.type('#email', 'me@shop.example');
    await page.type('#code', codes[3]);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(page.url()).toBe(`${dashboard.base}/dashboard/sign-in`);
    expect(await text(page)).toContain('Wrong e-mail or recovery code.');

    const again = await page.goto(link);
    expect(again!.status()).toBe(404);
    expect(await text(page)).toContain('This invitation is not valid');
    await accessible(page);

    await page.goto(`${dashboard.base}/dashboard/sign-in?lang=pt-BR`);
    expect(await text(page)).toContain('Entrar com chave de acesso');
    await screenshot(page, 'sign-in.pt-BR');
    await context.close();
    expect(dashboard.violations).toEqual([]);
  }, 120_000);

  it('refuses a POST without its CSRF token with 403, signed in or not', async () => {
    const signInPage = await dashboard.service.request('GET', '/dashboard/sign-in');
    const cookie = String(signInPage.headers['set-cookie']).split(';')[0];
    const refused = await dashboard.service.request('POST', '/dashboard/sign-in/recovery', {
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=me%40shop.example&code=abcd-abcd-abcd-abcd',
    });
    expect(refused.status).toBe(403);
    // No Accept-Language: pt-BR, the default.
    expect(refused.text).toContain('O formulário expirou ou não veio deste painel.');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(signInPage.text)![1];
    const accepted = await dashboard.service.request('POST', '/dashboard/sign-in/recovery', {
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${encodeURIComponent(csrf)}&email=me%40shop.example&code=abcd-abcd-abcd-abcd`,
    });
    expect(accepted.status).toBe(303);
  });
});
