import { DAY_MS } from '@pss/kernel';
import { ProjectionRunner } from '@pss/projections';
import { ManualClock } from '@pss/testkit';
import { AlertsTestService } from '../testing/alerts-test-service';
import { inventoryFact } from '../testing/inventory-fact';
import { SdkSilenceWatcher } from './sdk-silence.watcher';
import { SdkWatchConsumer } from './sdk-watch.consumer';

const HOUR_MS = 60 * 60 * 1000;
const T0 = Date.parse('2026-05-04T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('SDK-silent watch', () => {
  const clock = new ManualClock(iso(T0));
  let service: AlertsTestService;
  let watcher: SdkSilenceWatcher;
  let consumer: SdkWatchConsumer;
  let position = 0;

  const created = (storeId: string) =>
    consumer.storeCreated(inventoryFact('inventory.store.created', { domain: `${storeId}.example`, created_at: iso(T0) }, { store_id: storeId, position: ++position }));
  // The activity is appended without a read-your-writes wait (the watch runs every 5 minutes): wait for the read model.
  const reported = async (storeId: string, at: number) => {
    await consumer.sdkReported(inventoryFact('inventory.sdk.activity', { first_event_at: iso(at), last_event_at: iso(at) }, { store_id: storeId, position: ++position }));
    await service.app.get(ProjectionRunner).catchUp();
  };
  const silentAlerts = (storeId: string) => service.alerts({ store_id: storeId, type: 'SDK_SILENT' });

  beforeAll(async () => {
    service = await AlertsTestService.start(clock);
    watcher = service.app.get(SdkSilenceWatcher);
    consumer = service.app.get(SdkWatchConsumer);
  });
  afterAll(() => service.close());

  it('opens SDK_SILENT once for a store with traffic that sent nothing for 24 hours, and closes it when the SDK reports again', async () => {
    await created('quiet');
    await reported('quiet', T0);
    clock.set(iso(T0 + 24 * HOUR_MS));
    expect(await watcher.run()).toBe(0);

    clock.set(iso(T0 + 25 * HOUR_MS));
    expect(await watcher.run()).toBe(1);
    await watcher.run();
    const [alert, ...others] = await silentAlerts('quiet');
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      status: 'open',
      severity: 'medium',
      occurrences: 1,
      details: { domain: 'quiet.example', last_event_at: iso(T0) },
      first_seen_at: iso(T0 + 25 * HOUR_MS),
    });
    expect(await service.publishedFor(alert.id, 2)).toEqual(['alerts.alert.created', 'alerts.sdk.silent']);

    await reported('quiet', T0 + 25 * HOUR_MS);
    await reported('quiet', T0 + 25 * HOUR_MS);
    expect(await silentAlerts('quiet')).toEqual([
      expect.objectContaining({ id: alert.id, status: 'resolved', auto_resolved: true, resolved_by_label: 'system', resolved_at: iso(T0 + 25 * HOUR_MS) }),
    ]);
    expect(await service.publishedFor(alert.id, 3)).toEqual(['alerts.alert.created', 'alerts.sdk.silent', 'alerts.alert.resolved']);
    expect(await watcher.run()).toBe(0);
  });

  it('opens a new alert when the same store falls silent again', async () => {
    clock.set(iso(T0 + 50 * HOUR_MS));
    expect(await watcher.run()).toBe(1);
    const alerts = await silentAlerts('quiet');
    expect(alerts.map((alert) => alert.status)).toEqual(['resolved', 'open']);
    expect(alerts[1].details).toMatchObject({ last_event_at: iso(T0 + 25 * HOUR_MS) });
  });

  it('watches neither suspended stores nor stores without traffic in the last 7 days', async () => {
    await created('suspended');
    await reported('suspended', T0);
    await consumer.storeSuspended(inventoryFact('inventory.store.suspended', { suspended_at: iso(T0) }, { store_id: 'suspended', position: ++position }));
    await consumer.storeSuspended(inventoryFact('inventory.store.suspended', { suspended_at: iso(T0) }, { store_id: 'suspended', position }));
    await created('gone');
    await reported('gone', T0 + 50 * HOUR_MS - 7 * DAY_MS - 1);

    await watcher.run();
    expect(await silentAlerts('suspended')).toEqual([]);
    expect(await silentAlerts('gone')).toEqual([]);
  });
});
