import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IntegrationEvent } from '@pss/contracts';
import { eventually, ManualClock } from '@pss/testkit';
import { HttpsReceiver } from '../testing/https-receiver';
import { integrityAlert } from '../testing/integrity-alert';
import { startWebhookHarness, webhookSuite } from '../testing/webhook-harness';
import { Deliveries } from './deliveries';
import { NotificationsConsumer } from './notifications.consumer';
import { RetryCycle } from './retry-cycle';

const MINUTE = 60_000;

describe('retry cycle', () => {
  const clock = new ManualClock('2026-05-04T12:00:00.000Z');
  const suite = webhookSuite({ clock, scopes: ['webhooks:manage'], organization: {} });

  const createChannel = async (path: string) => (await suite.service.request('POST', '/api/v1/webhooks', { token: suite.token, body: { url: suite.receiver.url(path) } })).body;
  const history = async (channelId: string) => (await suite.service.ops('deliveries.list', { org: suite.orgId, channel: channelId })).data;
  /** The first attempt runs behind the consumer's back: its failure is recorded at the clock's time, so wait for it. */
  const firstAttemptFailed = (channelId: string) => eventually(() => history(channelId), ([entry]) => entry?.attempts === 1);
  const notify = (event: IntegrationEvent) => suite.service.app.get(NotificationsConsumer).notify(event);
  /** Runs the 5-minute cycles until `minutes` have passed; answers when each attempt reached the receiver. */
  const cyclesFor = async (minutes: number, path: string): Promise<number[]> => {
    const start = clock.now().getTime();
    const seenAt: number[] = [];
    for (let elapsed = 0; elapsed < minutes; elapsed += 5) {
      clock.advance(5 * MINUTE);
      const before = suite.receiver.received.filter((request) => request.path === path).length;
      await suite.service.app.get(RetryCycle).run();
      const after = suite.receiver.received.filter((request) => request.path === path).length;
      if (after > before) seenAt.push((clock.now().getTime() - start) / MINUTE);
    }
    return seenAt;
  };

  it('retries about 1, 10 and 60 minutes after each failure, in 5-minute cycles, and fails for good after the fourth attempt', async () => {
    const channel = await createChannel('/down');
    suite.receiver.answerWith({ status: 503, body: 'down for maintenance' });
    await notify(integrityAlert(suite.orgId, clock.now()));
    await firstAttemptFailed(channel.id);

    expect(await cyclesFor(120, '/down')).toEqual([5, 15, 75]);
    const attempts = suite.receiver.received.filter((request) => request.path === '/down');
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((request) => request.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(attempts.map((request) => request.json.id)).size).toBe(1);
    expect(new Set(attempts.map((request) => String(request.headers['x-service-signature']).split(',')[0])).size).toBe(4);
    const [entry] = await history(channel.id);
    expect(entry).toMatchObject({ status: 'failed', attempts: 4, last_error: 'http_503: down for maintenance', next_attempt_at: null });
    expect((await suite.get(`/webhooks/${channel.id}`)).body.active).toBe(true);
  });

  it('fails a retry that falls due while the channel is inactive, without sending it', async () => {
    const channel = await createChannel('/paused');
    suite.receiver.answerWith({ status: 500 });
    await notify(integrityAlert(suite.orgId, clock.now()));
    await firstAttemptFailed(channel.id);
    expect((await suite.call('PATCH', `/webhooks/${channel.id}`, { active: false })).status).toBe(200);
    suite.receiver.answerWith({ status: 200 });

    expect(await cyclesFor(10, '/paused')).toEqual([]);
    expect(await history(channel.id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'channel inactive' })]);
  });
});

describe('a crash between an event and its delivery', () => {
  it('loses nothing: the next start delivers it, once, and no later start sends it again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pss-crash-'));
    const receiver = await HttpsReceiver.start();
    let service = await startWebhookHarness({ dataDir });
    try {
      const { token, orgId } = await service.tenant(['webhooks:manage']);
      await service.request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url('/resumed') } });
      // The process dies after recording the request, before any attempt.
      jest.spyOn(service.app.get(Deliveries), 'attempt').mockResolvedValue(undefined);
      await service.app.get(NotificationsConsumer).notify(integrityAlert(orgId, new Date()));
      await service.close();
      expect(receiver.received).toEqual([]);

      for (let start = 0; start < 2; start += 1) {
        service = await startWebhookHarness({ dataDir });
        await service.app.get(RetryCycle).run();
        await service.close();
      }
      expect(receiver.received.map((request) => request.json.type)).toEqual(['integrity.changed']);
    } finally {
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
