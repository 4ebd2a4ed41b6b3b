import type { Page } from 'puppeteer-core';
import { accessible, DashboardInChromium, describeInChromium, ownerBackWithRecoveryCode, pressByKeyboard, screenshot } from './dashboard-browser';

/** A phone's width: where the navigation ran off the header before it wrapped. */
const PHONE = { width: 375, height: 800 };
/** Puppeteer's default viewport, the width of the other screenshots in docs/dashboard. */
const SCREENSHOT = { width: 800, height: 600 };

/** Where the navigation's links sit: their addresses in document order, and the ones outside the header's box or the window. */
const navigationLayout = (page: Page) =>
  page.evaluate(() => {
    const document = (globalThis as any).document;
    const header = document.querySelector('header').getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const links = Array.from(document.querySelectorAll('.main-nav a, .main-nav button')) as any[];
    const outside = links
      .filter((link) => {
        const box = link.getBoundingClientRect();
        return box.left < 0 || box.right > width || box.left < header.left || box.right > header.right || box.top < header.top || box.bottom > header.bottom;
      })
      .map((link) => link.textContent.trim());
    return { hrefs: links.map((link) => link.getAttribute('href') ?? 'sign-out'), outside, scrolls: document.documentElement.scrollWidth > width };
  });

/** Every control the Tab key reaches in the navigation, in the order it reaches them, from the top of the page. */
const tabOrder = async (page: Page): Promise<string[]> => {
  await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
  const reached: string[] = [];
  for (let presses = 0; presses < 60; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = (globalThis as any).document.activeElement;
      if (!active?.closest('.main-nav')) return active?.closest('.languages') ? 'past' : 'before';
      return active.getAttribute('href') ?? 'sign-out';
    });
    if (focused === 'past') return reached;
    if (focused !== 'before') reached.push(focused);
  }
  throw new Error('the Tab key never left the navigation');
};

const currentLinks = (page: Page) =>
  page.$$eval('.main-nav a[aria-current]', (links) =>
    links.map((link) => ({ href: link.getAttribute('href'), current: link.getAttribute('aria-current'), weight: (globalThis as any).getComputedStyle(link).fontWeight })),
  );

/**
 * The navigation on a narrow screen (issue 32): with every part-2 page linked it wraps inside the header, in both
 * languages, the Tab key still walks it in document order, and the page shown is marked with aria-current (and
 * more than colour). axe-core on each page, no CSP violation, the sign-out form refused without its CSRF token.
 */
describeInChromium('dashboard navigation in Chromium (embedded)', () => {
  const dashboard = DashboardInChromium.forSuite();

  it('wraps on a phone in both languages, keeps its keyboard order and marks the page shown', async () => {
    const org = await dashboard.service.createOrganization({ name: 'Shop', 'owner-email': 'me@shop.example' });
    const { page } = await dashboard.personWithPasskeyDevice();
    await ownerBackWithRecoveryCode(page, org.invitation_link as string, 'me@shop.example');

    await page.setViewport(SCREENSHOT);
    await page.goto(`${dashboard.base}/dashboard?lang=en`);
    const wide = await navigationLayout(page);
    expect(wide).toMatchObject({ outside: [], scrolls: false });
    await screenshot(page, 'navigation');

    await page.setViewport(PHONE);
    for (const language of ['pt-BR', 'en']) {
      await page.goto(`${dashboard.base}/dashboard?lang=${language}`);
      expect(await navigationLayout(page)).toEqual({ hrefs: wide.hrefs, outside: [], scrolls: false });
      await accessible(page);
    }
    expect(await currentLinks(page)).toEqual([{ href: '/dashboard', current: 'page', weight: '700' }]);
    await screenshot(page, 'navigation-phone');
    expect(await tabOrder(page)).toEqual(wide.hrefs);

    await page.goto(`${dashboard.base}/dashboard?lang=en`);

    await pressByKeyboard(page, 'E-mail channels');
    expect(await currentLinks(page)).toEqual([{ href: '/dashboard/channels', current: 'page', weight: '700' }]);
    await accessible(page);
    // Signed in with a code: the new channel's form asks for the passkey first, then comes back to it.
    await pressByKeyboard(page, 'New e-mail channel');
    await pressByKeyboard(page, 'Confirm with the passkey');
    expect(page.url()).toBe(`${dashboard.base}/dashboard/channels/new`);
    // A page under a section marks the section.
    expect(await currentLinks(page)).toEqual([{ href: '/dashboard/channels', current: 'true', weight: '700' }]);

    const refused = await dashboard.postForm(page, '/dashboard/sign-out', '', false);
    expect(refused.status).toBe(403);
    expect((await navigationLayout(page)).hrefs).toEqual(wide.hrefs);
    expect(dashboard.violations).toEqual([]);
  }, 180_000);
});
