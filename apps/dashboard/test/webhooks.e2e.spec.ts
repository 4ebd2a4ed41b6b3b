import { HttpsReceiver } from '@pss/notifier/src/testing/https-receiver';
import { signedWith } from '@pss/notifier/src/testing/signature-check';
import { startWebhookHarness } from '@pss/notifier/src/testing/webhook-harness';
import { accessible, copiedByButton, DashboardInChromium, describeInChromium, ownerBackWithRecoveryCode, pressByKeyboard, screenshot, signInWithCode, tableRows, text } from './dashboard-browser';

const OWNER = 'me@shop.example';

/**
 * Webhook channels in Chromium, by keyboard: the owner, back with a recovery code, proves a passkey again to
 * create a webhook (the URL refused in the command's words first), sees its signing secret once, tests it
 * against a local HTTPS receiver (the service's address guard lets loopback through only as the webhook harness
 * allows it), finds the test in its deliveries, changes and deletes it; a viewer reads it and is refused what they
 * post. Every page is checked with axe-core and must cause no CSP violation; a form without its CSRF token is refused.
 */
describeInChromium('dashboard webhook channels in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite((env) => startWebhookHarness({ env }));
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
  }, 60_000);
  afterAll(() => receiver?.close());

  it('creates a webhook by keyboard with its secret shown once, tests it into the receiver and its deliveries, changes and deletes it', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': OWNER });
    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, OWNER);

    await pressByKeyboard(page, 'Webhooks');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/webhooks`);
    expect(await text(page)).toContain('No webhooks yet.');
    await accessible(page);

    // Signed in with a code, not a passkey: creating a webhook (it gets a secret) asks for the passkey first.
    await pressByKeyboard(page, 'New webhook');
    await pressByKeyboard(page, 'Confirm with the passkey');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/webhooks/new`);
    await accessible(page);

    // The command refuses what POST /webhooks refuses, said on the field by the validation's reason.
    await page.type('#url', receiver.url('/hook').replace('https:', 'http:'));
    const refused = await pressByKeyboard(page, 'Create the webhook');
    expect(refused!.status()).toBe(400);
    expect(await text(page)).toContain('must be an https address of at most 2048 characters.');
    expect(await page.$eval('#url', (input) => input.getAttribute('aria-invalid'))).toBe('true');
    await accessible(page);
    await screenshot(page, 'webhook-create', { fullPage: true });

    await page.$eval('#url', (input) => ((input as unknown as { value: string }).value = ''));
    await page.type('#url', receiver.url('/hook'));
    await page.type('#name', 'Ops');
    for (const event of ['alert.created', 'test']) {
      await page.focus(`[id="event.${event}"]`);
      await page.keyboard.press('Space');
    }
    const created = await pressByKeyboard(page, 'Create the webhook');
    expect(created!.status()).toBe(200);
    expect(created!.headers()['cache-control']).toBe('no-store');
    const secret = await page.$eval('#webhook-secret', (element) => element.textContent ?? '');
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await copiedByButton(page, 'webhook-secret')).toBe(secret);
    await accessible(page);
    await screenshot(page, 'webhook-created');

    await pressByKeyboard(page, 'I copied the secret, go to the webhook');
    const webhookUrl = page.url();
    expect(webhookUrl).toMatch(/\/dashboard\/webhooks\/[0-9a-f-]{36}$/);
    expect(await text(page)).not.toContain(secret);
    // Never cached: going back cannot show the creation's answer again, nor can a reload of the webhook.
    await page.goBack().catch(() => null);
    expect(await text(page)).not.toContain(secret);
    await page.goto(webhookUrl);
    expect(await text(page)).not.toContain(secret);
    expect(await text(page)).toContain('No test in the last 90 days.');

    await pressByKeyboard(page, 'Send a test');
    expect(await text(page)).toContain('The test was delivered.');
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.json).toMatchObject({ type: 'test' });
    expect(signedWith(delivered, secret)).toBe(true);
    // The answer of the test: outcome, status code and duration, from its delivery.
    const lastTest = await page.$eval('#last-test', (element) => (element as unknown as { innerText: string }).innerText);
    expect(lastTest).toMatch(/Delivered[\s\S]*Status code\s+200[\s\S]*Duration\s+\d+ ms/);
    await accessible(page);
    await screenshot(page, 'webhook', { fullPage: true });

    await pressByKeyboard(page, 'Deliveries of Ops');
    expect(page.url()).toBe(`${webhookUrl}/deliveries`);
    const [row] = await tableRows(page, '#deliveries');
    expect([row[1], row[4], row[5], row[6]]).toEqual(['test', '1', 'Delivered', '200']);
    expect(row[3]).toBe(String(delivered.headers['x-service-delivery']));
    expect(await text(page)).toContain('To check the webhook, send a test.');
    await accessible(page);
    await screenshot(page, 'webhook-deliveries');

    await pressByKeyboard(page, 'Back to the channel');
    expect(page.url()).toBe(webhookUrl);
    await page.$eval('#name', (input) => ((input as unknown as { value: string }).value = ''));
    await page.type('#name', 'Ops alerts');
    await pressByKeyboard(page, 'Save changes');
    expect(await text(page)).toContain('Webhook "Ops alerts" changed.');

    await pressByKeyboard(page, 'Webhooks');
    expect(await tableRows(page, '#webhooks')).toEqual([['Ops alerts', receiver.url('/hook'), 'Whole organization', 'alert.created, test', 'Active', expect.any(String), 'Deliveries']]);
    await accessible(page);
    await screenshot(page, 'webhooks');

    // A viewer reads the webhook without its forms, and what they post anyway is refused on the server.
    const code = await dashboard.seatMember(org.id, 'viewer@shop.example', { kind: 'viewer' });
    const viewer = (await dashboard.personWithPasskeyDevice()).page;
    await viewer.goto(`${dashboard.base}/dashboard/sign-in?lang=en`);
    await signInWithCode(viewer, 'viewer@shop.example', code);
    await viewer.goto(webhookUrl);
    expect(await text(viewer)).toContain('Your role lets you see this webhook, not change it.');
    expect(await viewer.$$('form[action$="/test"], form[action$="/delete"]')).toHaveLength(0);
    await accessible(viewer);
    const id = webhookUrl.split('/').pop()!;
    expect((await dashboard.postForm(viewer, `/dashboard/webhooks/${id}/test`, '', true)).status).toBe(403);
    expect((await dashboard.postForm(viewer, '/dashboard/webhooks', `url=${encodeURIComponent(receiver.url('/hook'))}`, true)).status).toBe(403);
    expect(receiver.received).toHaveLength(1);
    await viewer.browserContext().close();

    // A form without its CSRF token is refused, and the webhook stays.
    const forged = await dashboard.postForm(page, `/dashboard/webhooks/${id}/delete`, '', false);
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('The form expired or did not come from this dashboard.');

    await page.goto(webhookUrl);
    await pressByKeyboard(page, 'Delete this webhook');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/webhooks`);
    expect(await text(page)).toContain('Webhook "Ops alerts" deleted.');
    expect(await text(page)).toContain('No webhooks yet.');

    // Each step under the person who took it.
    await page.goto(`${dashboard.base}/dashboard/audit-log?action=channel`);
    const actions = (await tableRows(page, 'main table')).map((cells) => cells.slice(1, 3).join(' '));
    expect(actions).toEqual([`user:${OWNER} channel.deleted`, `user:${OWNER} channel.updated`, `user:${OWNER} channel.created`]);

    await page.goto(`${dashboard.base}/dashboard/webhooks?lang=pt-BR`);
    expect(await text(page)).toContain('Nenhum webhook ainda.');
    await accessible(page);
    await page.browserContext().close();
    expect(dashboard.violations).toEqual([]);
  }, 180_000);
});
