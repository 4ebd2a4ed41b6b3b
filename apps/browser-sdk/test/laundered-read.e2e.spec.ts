import { describeInChromium, serviceInChromium } from './service-in-chromium';


/** A helper library as small as can be, read the way jQuery's `.val()` reads: `elem.value` inside the library. */
const HELPER = 'window.$ = function (selector) { var element = document.querySelector(selector); return { val: function () { return element.value; } }; };';

describeInChromium('a skimmer reading the card field through an authorized library, in Chromium', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read']);

  // The synchronous tag: the reads come 50 and 200 ms after the page's scripts run, which the loader's SDK may not
  // have reached on a loaded machine; attribution, not the loader, is what is tested here.
  const checkout = (snippet: string, scripts: string) =>
    `<!doctype html><html><head>${snippet}</head><body><form><input id="cc" name="cardnumber" autocomplete="cc-number" value="4111111111111111"></form>${scripts}</body></html>`;

  it('opens SENSITIVE_FIELD_ACCESS naming the skimmer, not the library, while the shop reading through it stays quiet', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token);
    const helper = fixtures.url('/laundered/helper.js', 'other');
    const skimmer = fixtures.url('/laundered/skim.js', 'vendor');
    fixtures.script('/laundered/helper.js', HELPER, { cors: true });
    fixtures.script('/laundered/skim.js', 'setTimeout(function () { window.stolen = $("#cc").val(); }, 200);', { cors: true });
    // The shop's own checkout code reads the card number through the helper too: that read is no alert.
    const shop = `<script src="${helper}"></script><script>setTimeout(function () { window.checked = $("#cc").val(); }, 50);</script>`;

    // The shop's first page view: the helper is inventoried, and the shop authorizes it.
    // (Without its checkout code: a read through the helper before it is authorized names the helper, rightly.)
    const before = await rig.visit(fixtures.page('/laundered/before', checkout(rig.synchronousTag(store), `<script src="${helper}"></script>`)));
    const library = (await rig.scriptsUntil(store.id, (found) => found.some((script) => script.src === helper))).find((script) => script.src === helper);
    const authorized = await rig.service.request('POST', `/api/v1/scripts/${library.id}/authorize`, { token: rig.token, body: { justification: 'Form helper of the checkout, reviewed' } });
    expect(authorized.body.status).toBe('authorized');
    await before.page.browserContext().close();

    // Then the checkout is compromised: a skimmer from another host reads the card number through the helper.
    const after = await rig.visit(fixtures.page('/laundered/checkout', checkout(rig.synchronousTag(store), `${shop}<script src="${skimmer}"></script>`)));
    const reads = (alerts: any[]) => alerts.filter((alert) => alert.type === 'SENSITIVE_FIELD_ACCESS');
    const alerts = reads(await rig.alertsUntil(store.id, (found) => reads(found).length > 0));
    expect(alerts).toEqual([
      expect.objectContaining({ source: skimmer, severity: 'high', details: expect.objectContaining({ src: skimmer, field: 'card_number', read_via: [helper] }) }),
    ]);
    const scripts = await rig.scripts(store.id);
    expect(scripts.find((script) => script.src === skimmer)).toMatchObject({ id: alerts[0].details.script_id, status: 'suspicious', sensitive_fields_accessed: ['card_number'] });
    expect(scripts.find((script) => script.src === helper)).toMatchObject({ status: 'authorized', sensitive_fields_accessed: ['card_number'] });
    expect(after.errors).toEqual([]);
    await after.page.browserContext().close();
  }, 90_000);
});
