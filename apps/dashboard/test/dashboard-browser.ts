import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, HTTPRequest, HTTPResponse, KeyInput, Page } from 'puppeteer-core';
import { freePort } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { chromiumFound, CHROME_PATH, launchChromium } from '@pss/browser-sdk/test/chromium';
import { FixtureServer } from '@pss/browser-sdk/test/fixture-server';
import { AggregateRepository } from '@pss/platform';
import { accessDecider, accessStream, type AccessCommand } from '../src/access/access.decider';
import { recoveryCodeHash } from '../src/access/recovery-codes';
import type { Role } from '../src/access/roles';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/**
 * Where the browser tests leave their screenshots: docs/dashboard (what docs/dashboard.md shows) only when asked
 * with UPDATE_SCREENSHOTS=1, so a test run never leaves the working tree changed; a temporary folder otherwise.
 */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1'
  ? join(__dirname, '../../../docs/dashboard')
  : join(tmpdir(), 'pss-dashboard-screenshots');

/** Saves what the page shows as `<name>.png` (see SCREENSHOTS for where). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

type StartService = (env: NodeJS.ProcessEnv) => Promise<EmbeddedHarness>;
const embeddedService: StartService = (env) => EmbeddedHarness.start({ env });

/**
 * The embedded service on a real port with PUBLIC_URL on localhost (the passkeys' relying party), and Chromium
 * with a person per browser context: what every dashboard browser test starts from.
 */
export class DashboardInChromium {
  /** Every CSP violation any page reported: a test expects none. */
  readonly violations: string[] = [];

  private running?: { service: EmbeddedHarness; browser: Browser; base: string; closeBrowser: () => Promise<void> };

  private constructor() {}

  /**
   * The dashboard the calling suite's tests share: started before its first test and closed after its last, so a
   * suite declares it in one line. Its service, browser and base exist from then on, in hooks and tests.
   * `startService` builds the service from the environment the dashboard needs (the webhook harness, say).
   */
  static forSuite(startService: StartService = embeddedService): DashboardInChromium {
    const dashboard = new DashboardInChromium();
    beforeAll(() => dashboard.open(startService), 60_000);
    afterAll(() => dashboard.close());
    return dashboard;
  }

  get service(): EmbeddedHarness {
    return this.started().service;
  }

  get browser(): Browser {
    return this.started().browser;
  }

  get base(): string {
    return this.started().base;
  }

  /** Closes what started; nothing when the start failed before (its hook reports why). */
  async close(): Promise<void> {
    if (!this.running) return;
    await this.running.closeBrowser();
    await this.running.service.close();
  }

  private async open(startService: StartService): Promise<void> {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const service = await startService({ PUBLIC_URL: base });
    await service.app.listen(port, '127.0.0.1');
    const { browser, close } = await launchChromium();
    this.running = { service, browser, base, closeBrowser: close };
  }

  private started(): NonNullable<DashboardInChromium['running']> {
    if (!this.running) throw new Error('the dashboard is not started: use it in a hook or a test, after forSuite\'s beforeAll');
    return this.running;
  }

  /** A fresh browser profile with a platform authenticator that verifies its user, reporting every CSP violation. */
  async personWithPasskeyDevice(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await this.browser.createBrowserContext();
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.exposeFunction('reportCspViolation', (violation: string) => this.violations.push(violation));
    await page.evaluateOnNewDocument(() => {
      // Runs in the page (the root tsconfig has no DOM types).
      const window = globalThis as any;
      window.document.addEventListener('securitypolicyviolation', (event: any) => window.reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${window.location.pathname}`));
    });
    return { context, page };
  }

  /**
   * A form posted beside the browser, in English, with the session of `page`'s person and, when `withCsrf`, the
   * CSRF token of the page's form: how a test shows the server refuses what the page would not send.
   */
  async postForm(page: Page, path: string, body: string, withCsrf: boolean) {
    const csrf = await page.$eval('input[name="_csrf"]', (input) => (input as unknown as { value: string }).value);
    const cookie = await this.sessionCookie(page.browserContext());
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', cookie };
    return this.service.request('POST', path, { headers, body: withCsrf ? `_csrf=${encodeURIComponent(csrf)}&${body}` : body });
  }

  /** A member of `orgId` with `role` and one recovery code (returned), invited and seated as the members page does it. */
  async seatMember(orgId: string, email: string, role: Role): Promise<string> {
    const code = 'abcd-efgh-jkmn-pqrs';
    const at = new Date();
    const hash = randomUUID();
    // Never used to sign in: the member comes in with the recovery code.
    const passkey = { id: randomBytes(16).toString('base64url'), publicKey: 'unused', counter: 0, transports: [], createdAt: at.toISOString(), lastUsedAt: null };
    const member = { memberId: randomUUID(), email, role, recoveryCodeHashes: [recoveryCodeHash(code)], passkey };
    const decide = (command: AccessCommand) => this.service.app.get(AggregateRepository).decide(accessStream(orgId), accessDecider, command, { actor: 'user:me@shop.example', orgId });
    await decide({ type: 'InviteMember', orgId, invitation: { hash, email, role, expiresAt: new Date(at.getTime() + 86_400_000).toISOString() }, at });
    await decide({ type: 'RedeemInvitation', orgId, invitationHash: hash, member, at });
    return code;
  }

  /** The session cookie of a browser context, as a Cookie header for requests made beside the browser. */
  async sessionCookie(context: BrowserContext): Promise<string> {
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-pss-dashboard');
    return `__Host-pss-dashboard=${session!.value}`;
  }
}

/**
 * The organization's owner redeems the invitation (their first passkey), then signs out and back in with a
 * recovery code, which does not count as a passkey check: the next sensitive action asks for the passkey again.
 */
export async function ownerBackWithRecoveryCode(page: Page, invitationLink: string, email: string): Promise<void> {
  await page.goto(`${invitationLink}?lang=en`);
  await pressByKeyboard(page, 'Accept and create my passkey');
  const codes = await page.$$eval('#recovery-codes code', (elements) => elements.map((element) => element.textContent ?? ''));
  await pressByKeyboard(page, 'I saved the codes, continue');
  await pressByKeyboard(page, 'Sign out');
  await signInWithCode(page, email, codes[0]);
}

/** Signs in on the sign-in page with a recovery code; the dashboard's home shows who is signed in. */
export async function signInWithCode(page: Page, email: string, code: string): Promise<void> {
  await page.type('#email', email);
  await page.type('#code', code);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  expect(await text(page)).toContain(`Signed in as ${email}`);
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function accessible(page: Page): Promise<void> {
  const found = await page.evaluate(async (source) => {
    // Evaluated by DevTools, as an extension would inject it: the page's CSP governs the page's own code.
    (0, eval)(source);
    const window = globalThis as any;
    const result = await window.axe.run(window.document, { resultTypes: ['violations'] });
    return result.violations.filter((violation: any) => ['serious', 'critical'].includes(violation.impact)).map((violation: any) => `${violation.id}: ${violation.help}`);
  }, AXE);
  expect(found).toEqual([]);
}

/** Tabs to the control whose text or accessible label is `label` and presses Enter, as a keyboard user does; the navigation it causes. */
export async function pressByKeyboard(page: Page, label: string): Promise<HTTPResponse | null> {
  for (let presses = 0; presses < 60; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = (globalThis as any).document.activeElement;
      return active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '';
    });
    if (focused === label) {
      const [response] = await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.keyboard.press('Enter')]);
      return response;
    }
  }
  throw new Error(`no control "${label}" reachable by Tab`);
}

/**
 * Presses `label` by keyboard and times `ask` (curl asking the API, say) from the moment the browser sent the
 * request `isSubmission` recognizes, asked as soon as that request is answered: the Tab walk to the control and the
 * page's load afterwards are the browser's time, not the service's, and slow on a loaded machine.
 */
export async function timedFromSubmission<T>(page: Page, label: string, isSubmission: (request: HTTPRequest) => boolean, ask: () => Promise<T>): Promise<{ answer: T; withinMs: number }> {
  const timed = page.waitForRequest(isSubmission).then(async () => {
    const sentAt = Date.now();
    await page.waitForResponse((response) => isSubmission(response.request()));
    return { answer: await ask(), withinMs: Date.now() - sentAt };
  });
  const [result] = await Promise.all([timed, pressByKeyboard(page, label)]);
  return result;
}

/** The browser's POST of a token's revocation (the confirmation page's button). */
export const isRevocation = (request: HTTPRequest): boolean => request.method() === 'POST' && request.url().endsWith('/revoke');

export const text = (page: Page): Promise<string> => page.evaluate(() => (globalThis as any).document.body.innerText);

/** The cells of each body row of `table` (a selector), as the page shows their text. */
export const tableRows = (page: Page, table: string): Promise<string[][]> =>
  page.$$eval(`${table} tbody tr`, (found) => found.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell as HTMLElement).innerText.trim())));

/**
 * Presses the copy button of the element `id` (a secret the page shows once) and reads back what it put on the
 * clipboard, once the button says it copied.
 */
export async function copiedByButton(page: Page, id: string): Promise<string> {
  await page.browserContext().overridePermissions(new URL(page.url()).origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  await page.click(`button[data-copy="${id}"]`);
  await page.waitForFunction((copied: string) => (globalThis as any).document.querySelector(`button[data-copy="${copied}"]`).textContent === 'Copied', {}, id);
  return page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
}

/**
 * A shop's own server (the fixture server) started and closed around the suite, for specs whose checkout runs
 * the snippet: what it serves is read through the getter, which throws if used before the suite started.
 */
export function fixtureServerForSuite(): () => FixtureServer {
  let fixtures: FixtureServer | undefined;
  beforeAll(async () => {
    fixtures = await FixtureServer.start();
  }, 60_000);
  afterAll(() => fixtures?.close());
  return () => {
    if (!fixtures) throw new Error('the fixture server starts in beforeAll: read it in a hook or a test');
    return fixtures;
  };
}

/** `describe` where Chromium is installed; elsewhere `describe.skip`, with one line saying why. */
export function describeInChromium(name: string, suite: () => void): void {
  if (!chromiumFound()) console.log(`Dashboard browser tests skipped (${name}): no Chromium at ${CHROME_PATH} (set CHROME_PATH, or apt-get install chromium)`);
  (chromiumFound() ? describe : describe.skip)(name, suite);
}

/** The review inbox's rows, by the script each is about (its address). */
export const reviewRowSources = (page: Page): Promise<string[]> =>
  page.$$eval('input[data-review-row]', (boxes) => boxes.map((box) => box.closest('tr')!.querySelector('a')!.textContent ?? ''));

async function press(page: Page, key: KeyInput, times = 1): Promise<void> {
  for (let n = 0; n < times; n += 1) await page.keyboard.press(key);
}

/** Selects `sources` in the review inbox by keyboard (j down to each, x), writes the justification (e, Esc) and decides (a or b). */
export async function decideByKeyboard(page: Page, sources: string[], justification: string, key: 'a' | 'b'): Promise<void> {
  const rows = await reviewRowSources(page);
  let at = -1;
  for (const index of sources.map((source) => rows.indexOf(source)).sort((a, b) => a - b)) {
    expect(index).toBeGreaterThanOrEqual(0);
    await press(page, 'j', index - at);
    await press(page, 'x');
    at = index;
  }
  await press(page, 'e');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type(justification);
  await press(page, 'Escape');
  await Promise.all([page.waitForNavigation(), press(page, key)]);
}

/** A moment on a zone's clock as the page-as-of form's date and time fields take it (with seconds). */
export function wallClock(at: Date, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}:${part('second')}` };
}
