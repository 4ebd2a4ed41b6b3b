import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { appendOutage, eventually, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/**
 * An EventStoreDB restart or election outlasts any bounded retry: the alerts consumer met it, dead-lettered the
 * fact after 1.5 s and lost the alert (review D2). It now waits for the store, and the alert opens once it is back.
 */
describe('an alert raised while the event store is out of reach (embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:write', 'alerts:read'] });

  it('opens once the store is back, and nothing is dead-lettered', async () => {
    const store = await suite.newStore();
    const outage = appendOutage(suite.service.app.get<EventStore>(EVENT_STORE), (stream) => stream.startsWith('alert-'));
    try {
      expect((await suite.service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://magentocore.net/mage.js', hash: sri('skimmer') }])).status).toBe(202);
      // Longer than every bounded attempt (5 over 1.5 s): the alert must not be opened, nor given up.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await suite.get(`/alerts?store_id=${store.id}`)).body.data).toEqual([]);
    } finally {
      outage.end();
    }

    const alerts = await eventually(async () => (await suite.get(`/alerts?store_id=${store.id}`)).body.data, (found) => found.length > 0);
    expect(alerts.map((alert: { type: string }) => alert.type)).toEqual(['MALICIOUS_SCRIPT']);
    expect(await suite.service.ops('bus.dead-letters')).toEqual([]);
  }, 20_000);
});
