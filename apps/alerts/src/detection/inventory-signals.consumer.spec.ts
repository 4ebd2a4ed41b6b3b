import { CommandBus } from '@nestjs/cqrs';
import { ManualClock } from '@pss/testkit';
import { UpdateAlert } from '../alert/update-alert';
import { AlertsTestService } from '../testing/alerts-test-service';
import { inventoryFact } from '../testing/inventory-fact';
import { InventorySignalsConsumer } from './inventory-signals.consumer';

const violation = (position: number, session: string, storeId = 'store-1') =>
  inventoryFact(
    'inventory.csp.violation',
    { page_url: 'https://loja.example/checkout', session_id: session, at: '2026-05-04T15:00:00.000Z', directive: 'script-src', blocked_uri: 'https://evil.example/x.js', source_file: null },
    { position, store_id: storeId },
  );

describe('inventory signals consumer', () => {
  const clock = new ManualClock('2026-05-04T15:00:01.000Z');
  let service: AlertsTestService;
  let consumer: InventorySignalsConsumer;

  beforeAll(async () => {
    service = await AlertsTestService.start(clock);
    consumer = service.app.get(InventorySignalsConsumer);
  });
  afterAll(() => service.close());

  it('changes nothing when the same integration event is delivered twice', async () => {
    await consumer.detect(violation(100, 'sess-a'));
    await consumer.detect(violation(100, 'sess-a'));
    await consumer.detect(violation(101, 'sess-b'));
    await consumer.detect(violation(101, 'sess-b'));
    await consumer.detect(violation(100, 'sess-a'));

    const [alert, ...others] = await service.alerts({ store_id: 'store-1' });
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ type: 'CSP_VIOLATION', severity: 'medium', status: 'open', occurrences: 2, sessions_count: 2 });

    // The publisher keeps order: once a later alert is out, the first one's messages all are.
    await consumer.detect(violation(102, 'sess-c', 'store-2'));
    const [later] = await service.alerts({ store_id: 'store-2' });
    expect(await service.publishedFor(later.id, 1)).toEqual(['alerts.alert.created']);
    expect(await service.publishedFor(alert.id, 1)).toEqual(['alerts.alert.created']);
  });

  it('opens a new alert for an occurrence after the alert was resolved, and still ignores a redelivered old one', async () => {
    const resolvedByApi = { id: 'cmd-resolve', deadline: new Date(Date.now() + 10_000).toISOString(), actor: 'api:test' };
    const [alert] = await service.alerts({ store_id: 'store-1' });
    await service.app.get(CommandBus).execute(new UpdateAlert({ orgId: 'org-1', alertId: alert.id, input: { status: 'resolved' }, command: resolvedByApi }));

    await consumer.detect(violation(101, 'sess-b'));
    expect(await service.alerts({ store_id: 'store-1' })).toEqual([expect.objectContaining({ id: alert.id, status: 'resolved', occurrences: 2 })]);

    await consumer.detect(violation(110, 'sess-d'));
    await consumer.detect(violation(110, 'sess-d'));
    const [resolved, reopened] = await service.alerts({ store_id: 'store-1' });
    expect(resolved).toMatchObject({ id: alert.id, status: 'resolved' });
    expect(reopened).toMatchObject({ status: 'open', occurrences: 1, sessions_count: 1, fingerprint: alert.fingerprint });
    expect(reopened.id).not.toBe(alert.id);
  });
});
