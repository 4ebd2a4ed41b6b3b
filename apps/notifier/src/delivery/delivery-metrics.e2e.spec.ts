import { eventually, ManualClock, metricSample } from '@pss/testkit';
import { integrityAlert } from '../testing/integrity-alert';
import { webhookSuite } from '../testing/webhook-harness';
import { NotificationsConsumer } from './notifications.consumer';
import { RetryCycle } from './retry-cycle';

/** What a platform team watches of the deliveries on `/metrics`: attempt outcomes and the backlog. */
describe('delivery metrics', () => {
  const clock = new ManualClock('2026-05-04T12:00:00.000Z');
  const suite = webhookSuite({ clock, scopes: ['webhooks:manage'], organization: {} });

  const scrape = async () => (await suite.service.request('GET', '/metrics')).text;
  const history = async (channelId: string) => (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: channelId })).data;

  it('counts a failed attempt as a retry scheduled and shows it pending, then the delivery once it succeeds', async () => {
    const channel = (await suite.service.request('POST', '/api/v1/webhooks', { token: suite.token, body: { url: suite.receiver.url('/flaky') } })).body;
    suite.receiver.answerWith({ status: 503, body: 'down' });
    await suite.service.app.get(NotificationsConsumer).notify(integrityAlert(suite.orgId, clock.now()));
    await eventually(() => history(channel.id), ([entry]) => entry?.attempts === 1);

    const failed = await eventually(scrape, (text) => metricSample(text, 'pss_webhook_delivery_attempts_total{outcome="retry_scheduled"}') === 1);
    expect(metricSample(failed, 'pss_webhook_deliveries_pending{due="later"}')).toBe(1);
    expect(metricSample(failed, 'pss_webhook_deliveries_pending{due="now"}')).toBe(0);
    expect(metricSample(failed, 'pss_webhook_delivery_attempts_total{outcome="delivered"}')).toBe(0);

    suite.receiver.answerWith({ status: 200, body: 'ok' });
    clock.advance(5 * 60_000);
    expect(metricSample(await scrape(), 'pss_webhook_deliveries_pending{due="now"}')).toBe(1);
    await suite.service.app.get(RetryCycle).run();
    const delivered = await eventually(scrape, (text) => metricSample(text, 'pss_webhook_delivery_attempts_total{outcome="delivered"}') === 1);
    expect(metricSample(delivered, 'pss_webhook_deliveries_pending{due="now"}') + metricSample(delivered, 'pss_webhook_deliveries_pending{due="later"}')).toBe(0);
  });
});
