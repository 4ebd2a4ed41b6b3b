import type { Page } from 'puppeteer-core';
import { VENDOR_HOST } from './fixture-server';
import { describeInChromium, serviceInChromium } from './service-in-chromium';

describeInChromium('block mode on a host shared by an authorized script and a blocked one, in Chromium', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review']);
  const api = (method: string, path: string, body?: object) => rig.service.request(method, path, { token: rig.token, body });

  it('blocking a pixel by its domain stops the pixel, not the authorized jQuery of the same host: the checkout still works', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token, { mode: 'block' });
    fixtures.script('/shared/jquery.min.js', 'window.$ = function (selector) { return "jq:" + selector; };');
    fixtures.script('/shared/pixel.js', 'window.pixelRan = true;');
    const jquery = fixtures.url('/shared/jquery.min.js?v=3.7.1', 'vendor');
    const pixel = fixtures.url('/shared/pixel.js', 'vendor');
    // jQuery in the HTML after the SDK (decided with the kept config); the pixel inserted by a tag once loaded
    // (decided with the fresh config); then the checkout's own code, which needs `$`.
    const url = fixtures.page(
      '/shared/checkout',
      `<!doctype html><html><head>${rig.synchronousTag(store)}<script src="${jquery}"></script></head><body><form id="pay"></form>
       <script>addEventListener('load', function () {
         var p = document.createElement('script'); p.src = '${pixel}'; p.onerror = function () { window.pixelFailed = true; }; document.body.appendChild(p);
         window.checkout = $('#pay');
       });</script></body></html>`,
    );
    const ran = (page: Page) => page.evaluate('({ checkout: window.checkout || null, pixel: !!window.pixelRan, pixelFailed: !!window.pixelFailed })');
    const context = await rig.browser.createBrowserContext();
    const visit = async () => {
      const view = await rig.visit(url, { context });
      await view.page.waitForFunction('window.pixelRan === true || window.pixelFailed === true');
      return view;
    };

    const first = await visit();
    expect(await ran(first.page)).toEqual({ checkout: 'jq:#pay', pixel: true, pixelFailed: false });
    await first.page.close();
    const seen = await rig.scriptsUntil(store.id, (list) => list.some((s) => s.src === pixel) && list.some((s) => s.src === jquery));
    const [jq, px] = [seen.find((s) => s.src === jquery), seen.find((s) => s.src === pixel)];
    expect((await api('POST', `/api/v1/scripts/${jq.id}/authorize`, { justification: 'The checkout needs jQuery' })).body.status).toBe('authorized');
    const blocked = await api('POST', `/api/v1/scripts/${px.id}/block`, { justification: 'Unknown pixel' });
    expect(blocked.body).toMatchObject({ rule: { target: 'domain', value: VENDOR_HOST }, also_blocks: [], spared: [{ id: jq.id, status: 'authorized' }] });

    // The next page view asks for the fresh config, which stops the pixel; the one after starts from the kept
    // config, which decides on jQuery before it runs.
    for (const view of ['fresh config', 'kept config']) {
      const { page, errors } = await visit();
      expect([view, await ran(page), errors]).toEqual([view, { checkout: 'jq:#pay', pixel: false, pixelFailed: true }, []]);
      await page.close();
    }
    await context.close();
  }, 90_000);
});
