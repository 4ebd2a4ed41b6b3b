import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';
import { SightingsFlusher } from './intake/sightings-flusher';

const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'reports:read', 'reports:generate'];

/**
 * What the public key sends is a claim (issue 29): batches that are no page view never say a store is monitored,
 * and the report says how many sessions and client addresses stood behind what does.
 */
describe('Forged monitoring evidence (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });
  const flush = () => suite.service.app.get(SightingsFlusher).run();
  const appScript = (domain: string) => ({ kind: 'script', src: `https://www.${domain}/static/app.js`, hash: sri('app v1'), hash_source: 'sdk' });

  it('takes 20 empty batches from anywhere as usage only: the store stays not installed and its week unmonitored', async () => {
    const store = await suite.newStore();
    for (let n = 0; n < 20; n += 1) expect((await suite.service.reportSdk(store.sdk_key, [], { session_id: `forged-${n}` }, `198.51.100.${n}`)).status).toBe(202);
    // One lone signal too, so the window has observations to count once it is recorded.
    const headers = { kind: 'headers', headers: { 'x-frame-options': 'DENY' } };
    await suite.service.reportSdk(store.sdk_key, [headers], { session_id: 'forged-headers' }, '198.51.100.99');
    await flush();
    const status = await eventually(() => suite.get(`/stores/${store.id}/status`), (answer) => answer.body.sdk?.events_total === 1);
    expect(status.body.sdk).toMatchObject({ installed: false, last_event_at: null, silent: false });

    clock.advance(2 * 3600_000); // the SDK's hours are counted once over
    const report = (await suite.get(`/reports/pci?store_id=${store.id}`)).body.data;
    expect(report.periodic_checks).toEqual([expect.objectContaining({ sdk_batches: 0, sdk_sessions: 0, sdk_client_addresses: 0, no_monitoring: true })]);
    expect(report.pages_observed).toEqual([]);
  });

  it('shows how many distinct sessions and client addresses stood behind the monitored week', async () => {
    clock.set('2026-11-30T12:00:00.000Z');
    const store = await suite.newStore();
    const views = [
      ['session-a', '203.0.113.1'],
      ['session-a', '203.0.113.1'],
      ['session-b', '203.0.113.1'],
      ['session-c', '203.0.113.2'],
    ];
    for (const [session, address] of views) await suite.service.reportSdk(store.sdk_key, [appScript(store.domain)], { session_id: session }, address);
    await suite.service.reportSdk(store.sdk_key, [], { session_id: 'heartbeat' }, '198.51.100.7');
    await flush();
    const status = await eventually(() => suite.get(`/stores/${store.id}/status`), (answer) => answer.body.sdk?.installed === true);
    expect(status.body.sdk.last_event_at).toBe(clock.now().toISOString());

    clock.advance(2 * 3600_000);
    const report = (await suite.get(`/reports/pci?store_id=${store.id}`)).body.data;
    expect(report.periodic_checks).toEqual([
      expect.objectContaining({ sdk_batches: views.length, sdk_sessions: 3, sdk_client_addresses: 2, no_monitoring: false }),
    ]);
    expect(report.pages_observed).toEqual([{ page: '/checkout', batches: views.length }]);
    // Addresses are counted, never kept: not even hashed in what the report shows.
    expect(JSON.stringify(report)).not.toMatch(/203\.0\.113/);
  });

  describe('a changed authorized script (its mismatch is held)', () => {
    const vendor = (content: string) => ({ kind: 'script', src: 'https://cdn.vendor.example/pay.js', hash: sri(content), hash_source: 'sdk' });
    /** A store whose authorized vendor script was seen changed: the shopper's address first reported it. */
    const changedVendor = async (shopper: string) => {
      const store = await suite.newStore();
      const view = (content: string, session: string, address: string) => suite.service.reportSdk(store.sdk_key, [vendor(content)], { session_id: session }, address);
      await view('v1', 'shopper-1', shopper);
      const { id } = (await eventually(() => suite.get(`/scripts?store_id=${store.id}`), (answer) => answer.body.data?.length === 1)).body.data[0];
      await suite.call('POST', `/scripts/${id}/authorize`, { justification: 'Payment vendor, reviewed' });
      await view('v2 skimmer', 'shopper-2', '203.0.113.11');
      // The read model follows the events: wait for the content (or the integrity) the step is about.
      const script = (ready: (doc: any) => boolean) => eventually(async () => (await suite.get(`/scripts/${id}`)).body, ready);
      expect(await script((doc) => doc.current_hash === sri('v2 skimmer'))).toMatchObject({ integrity_status: 'mismatch' });
      return { store, id, view, script };
    };
    const reported = async (storeId: string, id: string) => (await suite.get(`/reports/pci?store_id=${storeId}`)).body.data.scripts.find((script: { id: string }) => script.id === id);

    it('never lets a re-posted old hash clear it: only sessions from several addresses, or an authorization, do', async () => {
      const { store, id, view, script } = await changedVendor('203.0.113.10');
      // The attacker re-posts the authorized hash, from one address, with fresh sessions.
      for (const session of ['forged-1', 'forged-2', 'forged-3']) expect((await view('v1', session, '198.51.100.66')).body).toMatchObject({ accepted: 1, rejected: 0 });
      await flush();
      // The authorized content is recorded as seen (the current hash, each sighting once), yet the mismatch stands, in the report too.
      expect(await script((doc) => doc.current_hash === sri('v1') && doc.sightings === 5)).toMatchObject({ integrity_status: 'mismatch', last_verified_at: null });
      expect(await reported(store.id, id)).toMatchObject({ current_hash: sri('v1'), integrity_status: 'mismatch' });

      // Real shoppers from other addresses see the authorized content: sessions over several addresses restore it.
      for (const [n, session] of ['shopper-3', 'shopper-5', 'shopper-6'].entries()) await view('v1', session, `203.0.113.${20 + n}`);
      const restored = await script((doc) => doc.integrity_status === 'match');
      expect(restored).toMatchObject({ current_hash: sri('v1'), last_verified_at: clock.now().toISOString() });
      expect(restored).not.toHaveProperty('_mismatch_held');
      expect(await reported(store.id, id)).toMatchObject({ current_hash: sri('v1'), integrity_status: 'match' });

      await view('v3 skimmer', 'shopper-4', '203.0.113.13');
      await script((doc) => doc.current_hash === sri('v3 skimmer'));
      const decided = await suite.call('POST', `/scripts/${id}/authorize`, { justification: 'Vendor v3, checked with the vendor' });
      expect(decided.body).toMatchObject({ current_hash: sri('v3 skimmer'), integrity_status: 'match' });
    });

    it('counts its sightings from an address whose share of new scripts is spent: they are no new scripts', async () => {
      const shopper = '203.0.113.40';
      const { store, view, script } = await changedVendor(shopper);
      // The address that reported the script first (so no other vouches for its sightings) spends its share on junk.
      const junk = Array.from({ length: 50 }, (_, n) => ({ kind: 'script', src: `https://junk.example.net/${n}.js`, hash: sri(`junk ${n}`) }));
      expect((await suite.service.reportSdk(store.sdk_key, junk, { session_id: 'junk' }, shopper)).body.rejections[0].reason).toMatch(/this address's share/);

      for (const session of ['shopper-3', 'shopper-4']) expect((await view('v1', session, shopper)).body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
      await view('v1', 'shopper-5', '203.0.113.41');
      expect(await script((doc) => doc.integrity_status === 'match')).toMatchObject({ current_hash: sri('v1'), last_verified_at: clock.now().toISOString() });
    });
  });
});
