import { eventually, ManualClock, sri } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { SightingsFlusher } from './intake/sightings-flusher';

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'reports:read', 'reports:generate'];

/**
 * What the public key sends is a claim (issue 29): batches that are no page view never say a store is monitored,
 * and the report says how many sessions and client addresses stood behind what does.
 */
describe('Forged monitoring evidence (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  let service: EmbeddedHarness;
  let token: string;

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ clock });
    ({ token } = await service.tenant(SCOPES, { plan: 'enterprise' }));
  });
  afterAll(() => service.close());

  const get = (url: string) => service.request('GET', `/api/v1${url}`, { token });
  const flush = () => service.app.get(SightingsFlusher).run();
  const appScript = (domain: string) => ({ kind: 'script', src: `https://www.${domain}/static/app.js`, hash: sri('app v1'), hash_source: 'sdk' });

  it('takes 20 empty batches from anywhere as usage only: the store stays not installed and its week unmonitored', async () => {
    const store = await service.createStore(token);
    for (let n = 0; n < 20; n += 1) expect((await service.reportSdk(store.sdk_key, [], { session_id: `forged-${n}` }, `198.51.100.${n}`)).status).toBe(202);
    // One lone signal too, so the window has observations to count once it is recorded.
    const headers = { kind: 'headers', headers: { 'x-frame-options': 'DENY' } };
    await service.reportSdk(store.sdk_key, [headers], { session_id: 'forged-headers' }, '198.51.100.99');
    await flush();
    const status = await eventually(() => get(`/stores/${store.id}/status`), (answer) => answer.body.sdk?.events_total === 1);
    expect(status.body.sdk).toMatchObject({ installed: false, last_event_at: null, silent: false });

    clock.advance(2 * 3600_000); // the SDK's hours are counted once over
    const report = (await get(`/reports/pci?store_id=${store.id}`)).body.data;
    expect(report.periodic_checks).toEqual([expect.objectContaining({ sdk_batches: 0, sdk_sessions: 0, sdk_client_addresses: 0, no_monitoring: true })]);
    expect(report.pages_observed).toEqual([]);
  });

  it('shows how many distinct sessions and client addresses stood behind the monitored week', async () => {
    clock.set('2026-11-30T12:00:00.000Z');
    const store = await service.createStore(token);
    const views = [
      ['session-a', '203.0.113.1'],
      ['session-a', '203.0.113.1'],
      ['session-b', '203.0.113.1'],
      ['session-c', '203.0.113.2'],
    ];
    for (const [session, address] of views) await service.reportSdk(store.sdk_key, [appScript(store.domain)], { session_id: session }, address);
    await service.reportSdk(store.sdk_key, [], { session_id: 'heartbeat' }, '198.51.100.7');
    await flush();
    const status = await eventually(() => get(`/stores/${store.id}/status`), (answer) => answer.body.sdk?.installed === true);
    expect(status.body.sdk.last_event_at).toBe(clock.now().toISOString());

    clock.advance(2 * 3600_000);
    const report = (await get(`/reports/pci?store_id=${store.id}`)).body.data;
    expect(report.periodic_checks).toEqual([
      expect.objectContaining({ sdk_batches: views.length, sdk_sessions: 3, sdk_client_addresses: 2, no_monitoring: false }),
    ]);
    expect(report.pages_observed).toEqual([{ page: '/checkout', batches: views.length }]);
    // Addresses are counted, never kept: not even hashed in what the report shows.
    expect(JSON.stringify(report)).not.toMatch(/203\.0\.113/);
  });
});
