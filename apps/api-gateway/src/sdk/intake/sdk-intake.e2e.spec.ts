import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { ProjectionRunner } from '@pss/projections';
import { ManualClock, sri } from '@pss/testkit';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { SdkIngestion } from '@pss/inventory/src/ingestion/sdk-ingestion.service';
import { NEW_SCRIPT_LIMITS, NEW_SIGNAL_LIMITS, type BudgetLimits } from '@pss/inventory/src/ingestion/store-budget';
import { EDGE_SCRIPT_FRESH_MS } from './edge-scripts';
import { SightingsFlusher } from './sightings-flusher';

/** Small enough that a test spends a store's allowance in one batch (from one address: these tests are about the store's). */
const LIMITS: BudgetLimits = { perBatch: 10, perMinute: 10, burst: 10, trackedStores: 100, clientShare: 1 };

@Global()
@Module({
  providers: [
    { provide: NEW_SCRIPT_LIMITS, useValue: LIMITS },
    { provide: NEW_SIGNAL_LIMITS, useValue: LIMITS },
  ],
  exports: [NEW_SCRIPT_LIMITS, NEW_SIGNAL_LIMITS],
})
class TestLimitsModule {}

const page = [
  { kind: 'script', src: 'https://cdn.shop.example/app.js?v=1', hash: sri('app v1') },
  { kind: 'script', src: 'https://sdk.mercadopago.com/js/v2', hash: sri('mercado pago v2') },
  { kind: 'script', inline: true, hash: sri('window.dataLayer = [];') },
  { kind: 'headers', headers: { 'content-security-policy': "script-src 'self'", 'x-frame-options': 'DENY' } },
];

/**
 * The SDK fast path (issue 15, goal 1): what the gateway already knows is settled at the edge, with no command to
 * inventory, and every sighting is still counted; the edge never answers for what it has not seen inventory settle.
 */
describe('SDK intake at the edge (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-08-03T10:00:00.000Z');
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-intake-'));
  let service: EmbeddedHarness;
  let token: string;
  let forwarded: jest.SpyInstance;

  const start = async () => {
    service = await EmbeddedHarness.start({ clock, dataDir, modules: [...EMBEDDED_MODULES, TestLimitsModule] });
    forwarded = jest.spyOn(service.app.get(SdkIngestion), 'ingest');
  };
  beforeAll(async () => {
    await start();
    ({ token } = await service.tenant(['stores:write', 'scripts:read', 'stores:read'], { plan: 'enterprise' }));
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const scripts = async (storeId: string) => (await service.request('GET', `/api/v1/scripts?store_id=${storeId}`, { token })).body.data as any[];
  /** What a sighting records when it is not a sighting: a new script or new content (policy decisions come behind). */
  const observedScripts = async (storeId: string) =>
    (await service.app.get<EventStore>(EVENT_STORE).readAll({ filter: { eventTypes: ['ScriptDetected', 'ScriptHashChanged'] }, maxCount: 100_000 })).filter(
      (event) => (event.data as { storeId?: string }).storeId === storeId,
    ).length;
  const flushed = async () => {
    await service.app.get(SightingsFlusher).run();
    expect(await service.app.get(ProjectionRunner).catchUp()).toBe(true);
  };

  it('asks inventory for the first page view only, and still counts every sighting', async () => {
    const store = await service.createStore(token);
    forwarded.mockClear();
    for (let view = 0; view < 4; view += 1) expect((await service.reportSdk(store.sdk_key, page, { session_id: `session-${view}` })).status).toBe(202);
    expect(forwarded).toHaveBeenCalledTimes(1);

    await flushed();
    const app = (await scripts(store.id)).find((script) => script.src.includes('app.js'));
    expect(app).toMatchObject({ sightings: 4, sessions_count: 4 });
    const status = (await service.request('GET', `/api/v1/stores/${store.id}/status`, { token })).body;
    expect(status.sdk).toMatchObject({ installed: true, events_total: 16 });
  });

  it('sends new content, a new script and changed headers to inventory, and only those', async () => {
    const store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, page);
    forwarded.mockClear();
    const changed = [{ ...page[0], hash: sri('app v2') }, page[1], page[2], { kind: 'headers', headers: { 'x-frame-options': 'DENY' } }];
    await service.reportSdk(store.sdk_key, changed);
    expect(forwarded).toHaveBeenCalledTimes(1);
    expect(forwarded.mock.calls[0][0].observations).toMatchObject([changed[0], changed[3]]);
    expect((await scripts(store.id)).find((script) => script.src.includes('app.js')).current_hash).toBe(sri('app v2'));
  });

  it('checks a remembered script with inventory again once it is no longer fresh', async () => {
    const store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, page);
    clock.advance(EDGE_SCRIPT_FRESH_MS + 1);
    forwarded.mockClear();
    await service.reportSdk(store.sdk_key, page);
    expect(forwarded).toHaveBeenCalledTimes(1);
    forwarded.mockClear();
    await service.reportSdk(store.sdk_key, page);
    expect(forwarded).not.toHaveBeenCalled();
  });

  it('defers new scripts beyond the budget one by one, asks nothing for unseen ones while it is spent, and still records signals', async () => {
    const store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, page);
    const forged = (from: number) => Array.from({ length: 10 }, (_, n) => ({ kind: 'script', src: `https://forged.example.net/${from + n}.js`, hash: sri(`forged ${from + n}`) }));
    forwarded.mockClear();
    // The page spent 3 of the 10: inventory records 7 of these and defers the last 3, which the 202 rejects.
    const first = await service.reportSdk(store.sdk_key, forged(0));
    expect(first.status).toBe(202);
    expect([first.body.accepted, first.body.rejected, first.body.rejections.map((r: { index: number }) => r.index)]).toEqual([7, 3, [7, 8, 9]]);
    expect(first.body.rejections[0].reason).toMatch(/^new script not recorded: this store's limit of new scripts is spent; report it again after \d+ seconds$/);
    expect(forwarded).toHaveBeenCalledTimes(1);
    // While it is spent, scripts the edge never saw are deferred without a command...
    for (let n = 0; n < 5; n += 1) expect((await service.reportSdk(store.sdk_key, forged(200 + n * 10))).body).toMatchObject({ accepted: 0, rejected: 10 });
    expect(forwarded).toHaveBeenCalledTimes(1);
    // ...but what else a batch carries goes on and is recorded: a flood cannot hide a skimmer reading the card.
    const read = { kind: 'sensitive_field_access', src: 'https://skim.example.org/s.js', field: 'card_number' };
    const mixed = await service.reportSdk(store.sdk_key, [...forged(300), read]);
    expect([mixed.status, mixed.body.accepted, mixed.body.rejected]).toEqual([202, 1, 10]);
    expect(forwarded).toHaveBeenCalledTimes(2);
    expect(forwarded.mock.calls[1][0].observations).toEqual([read]);
    const signals = await service.app.get<EventStore>(EVENT_STORE).readAll({ filter: { eventTypes: ['SensitiveFieldAccessed'] }, maxCount: 100_000 });
    expect(signals.filter((event) => (event.data as { storeId: string }).storeId === store.id)).toHaveLength(1);
    // Known scripts pass at the edge as before.
    expect((await service.reportSdk(store.sdk_key, page)).body).toMatchObject({ accepted: page.length, rejected: 0 });
    expect(forwarded).toHaveBeenCalledTimes(2);
  });

  it('records a signal seen before however many new ones a flood sends, and rejects the new ones beyond the budget one by one', async () => {
    const store = await service.createStore(token);
    const violation = (n: number) => ({ kind: 'csp_violation', directive: 'script-src', blocked_uri: `https://forged-${n}.example.net/x.js` });
    const real = { kind: 'csp_violation', directive: 'script-src', blocked_uri: 'https://skimmer.example.org/s.js' };
    expect((await service.reportSdk(store.sdk_key, [real])).body).toMatchObject({ accepted: 1, rejected: 0 });
    // 12 new contents against an allowance of 9 left: the last 3 are rejected, by their index.
    const flood = await service.reportSdk(store.sdk_key, [...Array.from({ length: 12 }, (_, n) => violation(n)), real]);
    expect([flood.status, flood.body.accepted, flood.body.rejected, flood.body.rejections.map((r: { index: number }) => r.index)]).toEqual([202, 10, 3, [9, 10, 11]]);
    expect(flood.body.rejections[0].reason).toMatch(/^new signal not recorded: this store's limit of new signals is spent; report it again after \d+ seconds$/);
    // The spent budget does not stop a signal the store has seen: the real page's violation is recorded each time.
    expect((await service.reportSdk(store.sdk_key, [violation(50), real])).body).toMatchObject({ accepted: 1, rejected: 1 });
    const recorded = (await service.app.get<EventStore>(EVENT_STORE).readAll({ filter: { eventTypes: ['CspViolationObserved'] }, maxCount: 100_000 }))
      .map((event) => event.data as { storeId: string; blockedUri: string })
      .filter((event) => event.storeId === store.id);
    expect(recorded.filter((event) => event.blockedUri === real.blocked_uri)).toHaveLength(3);
    expect(recorded).toHaveLength(3 + 9);
  });

  it('starts cold after a restart, learns from inventory and records nothing twice', async () => {
    const store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, page);
    await flushed();
    expect(await observedScripts(store.id)).toBe(3);
    await service.close();
    await start();

    await service.reportSdk(store.sdk_key, page, { session_id: 'after-restart' });
    expect(forwarded).toHaveBeenCalledTimes(1);
    expect(await forwarded.mock.results[0].value).toMatchObject({ scripts: page.slice(0, 3).map(() => expect.objectContaining({ outcome: 'known' })) });
    await service.reportSdk(store.sdk_key, page, { session_id: 'after-restart' });
    expect(forwarded).toHaveBeenCalledTimes(1);
    await flushed();
    expect(await observedScripts(store.id)).toBe(3);
    expect((await scripts(store.id)).find((script) => script.src.includes('app.js'))).toMatchObject({ sightings: 3 });
  });
});
