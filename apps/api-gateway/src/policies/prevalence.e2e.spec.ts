import { DAY_MS } from '@pss/kernel';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { SightingsFlusher } from '../sdk/intake/sightings-flusher';

const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'policies:read', 'policies:write'];
const WIDGET = 'https://widgets.reviews-legit.example/w.js';
const PLANTED = 'https://cdn.attacker-chosen.example/x.js';

/**
 * Issue 29: prevalence cannot be bought. An organization whose plan allows one store creates, reports and
 * suspends twenty stores (a suspended store frees its slot) to make its host common; another tenant's `auto`
 * policy on prevalence must not authorize it, while a host a monitored shop of another organization runs is.
 */
describe('prevalence_min across tenants (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const suite = embeddedSuite({ clock });

  const script = (src: string) => ({ kind: 'script', src, hash: sri(src) });
  /** Reports reach `store_activity` when the edge flushes its counts. */
  const reportAndFlush = async (store: { sdk_key: string }, observations: unknown[]) => {
    expect((await suite.service.reportSdk(store.sdk_key, observations)).status).toBe(202);
    await suite.service.app.get(SightingsFlusher).run();
  };
  const scriptOf = async (token: string, storeId: string, src: string) =>
    ((await suite.service.request('GET', `/api/v1/scripts?store_id=${storeId}`, { token })).body.data as any[]).find((s) => s.src === src);

  it("does not let one organization's churned stores make its host prevalent for another tenant's auto policy", async () => {
    const shop = await suite.service.tenant(SCOPES, { plan: 'enterprise' });
    const monitoredShop = await suite.service.createStore(shop.token);
    await reportAndFlush(monitoredShop, [script(WIDGET)]);

    const attacker = await suite.service.tenant(SCOPES, { plan: 'essential' });
    for (let round = 0; round < 20; round++) {
      const store = await suite.service.createStore(attacker.token);
      expect(store.id).toBeDefined(); // the one-store plan: each suspension frees the slot for the next
      await reportAndFlush(store, [script(PLANTED)]);
      expect((await suite.service.request('DELETE', `/api/v1/stores/${store.id}`, { token: attacker.token })).body.status).toBe('suspended');
    }
    const current = await suite.service.createStore(attacker.token);
    await reportAndFlush(current, [script(PLANTED)]);

    // A week on, the shop's SDK still reports: it has a monitoring history. The attacker's live store, silent
    // since its first report, has none.
    clock.advance(8 * DAY_MS);
    await reportAndFlush(monitoredShop, [script(WIDGET)]);

    const victim = await suite.service.tenant(SCOPES, { plan: 'enterprise' });
    const policy = await suite.service.request('POST', '/api/v1/policies', {
      token: victim.token,
      body: { name: 'Authorize what other shops run', mode: 'auto', priority: 5, match: {}, conditions: { prevalence_min: 0.5 }, action: 'authorize' },
    });
    expect(policy.status).toBe(201);
    const store = await suite.service.createStore(victim.token);
    expect((await suite.service.reportSdk(store.sdk_key, [script(WIDGET), script(PLANTED)])).status).toBe(202);

    // Decided in the order reported; the planted host falls through to the default "Review everything else".
    const planted = await eventually(() => scriptOf(victim.token, store.id, PLANTED), (s) => s !== undefined && (s.recommendation !== null || s.status !== 'needs_review'));
    expect(planted).toMatchObject({ status: 'needs_review', authorization_method: null, prevalence_seen: null, recommendation: expect.objectContaining({ action: 'needs_review' }) });

    const widget = await scriptOf(victim.token, store.id, WIDGET);
    expect(widget).toMatchObject({ status: 'authorized', authorization_method: 'policy', policy_id: policy.body.id, prevalence_seen: 1 });

    // Once its live store has a history of its own, the attacker's organization is a voter like any other: one
    // vote however many stores it churned, here one of the two other organizations.
    clock.advance(DAY_MS);
    await reportAndFlush(current, [script(PLANTED)]);
    const simulated = await suite.service.request('POST', `/api/v1/policies/${policy.body.id}/simulate`, { token: victim.token, body: { store_id: store.id } });
    expect(simulated.body.would_authorize.map((s: { src: string }) => s.src)).toEqual([PLANTED]);
  });
});
