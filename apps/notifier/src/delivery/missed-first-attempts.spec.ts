import { SharedEngines, type Replica } from '@pss/embedded/src/testing/shared-engines';
import type { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { eventually, ManualClock } from '@pss/testkit';
import { HttpsReceiver } from '../testing/https-receiver';
import { integrityAlert } from '../testing/integrity-alert';
import { startWebhookHarness } from '../testing/webhook-harness';
import { Deliveries } from './deliveries';
import { NotificationsConsumer } from './notifications.consumer';

/**
 * Issue 33: with two replicas, a webhook whose delivery was requested on the replica that then died was sent only
 * by the next 5-minute retry cycle: the immediate attempt waited in that process's memory (or the event, delivered
 * again to the other replica, found its delivery requested and sent nothing). Here no test code runs a job: the
 * survivor's own timers must make the attempt.
 */
describe('a replica that dies before the immediate attempts it had queued', () => {
  const clock = new ManualClock('2026-05-04T12:00:00.000Z');
  const engines = new SharedEngines();
  const replicas: Replica[] = [];
  const services: EmbeddedHarness[] = [];
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
    for (const index of [0, 1]) {
      const env = { OPS_SOCKET: `${engines.dataDir}/ops-${index}.sock` };
      replicas.push(engines.connect());
      services.push(await startWebhookHarness({ dataDir: engines.dataDir, engines: replicas[index].engines, clock, env }));
    }
  });
  afterAll(async () => {
    for (const service of services) await service.close().catch(() => undefined);
    await engines.close();
    await receiver?.close();
  });

  it('leaves them to another replica, which sends each once within seconds, not at the next retry cycle', async () => {
    const [survivor, dying] = services;
    const { token, orgId } = await survivor.tenant(['webhooks:manage']);
    const channel = await survivor.request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url('/orphaned') } });
    expect(channel.status).toBe(201);

    // The dying replica records the delivery; its attempt, queued in memory, dies with the process.
    jest.spyOn(dying.app.get(Deliveries), 'attempt').mockResolvedValue(undefined);
    await dying.app.get(NotificationsConsumer).notify(integrityAlert(orgId, clock.now()));
    await replicas[1].crash();
    expect(receiver.received).toEqual([]);

    clock.advance(15_000);
    const sent = await eventually(async () => receiver.received.filter((request) => request.path === '/orphaned'), (received) => received.length > 0, { timeoutMs: 15_000 });
    expect(sent.map((request) => request.json.type)).toEqual(['integrity.changed']);
    const history = await eventually(async () => (await survivor.ops('deliveries.list', { org: orgId, channel: channel.body.id })).data, ([entry]: Array<{ status: string }>) => entry?.status === 'delivered');
    expect(history).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  }, 40_000);
});
