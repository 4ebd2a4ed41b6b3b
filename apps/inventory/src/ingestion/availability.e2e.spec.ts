import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { Global, Module } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { ProjectionRunner } from '@pss/projections';
import { eventually, ManualClock, sri } from '@pss/testkit';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { MAX_CHANNELS_PER_STORE, MAX_ORGANIZATION_WIDE_CHANNELS } from '@pss/notifier/src/channels/channel-limits';
import type { DeliveryEvent } from '@pss/notifier/src/delivery/delivery.events';
import { NotifierModule } from '@pss/notifier/src/notifier.module';
import { DELIVERY_CLIENT_SETTINGS } from '@pss/notifier/src/outbound/delivery-client-settings';
import { NEW_SCRIPT_LIMITS, type BudgetLimits } from './store-budget';

type DeliveryRequested = Extract<DeliveryEvent, { type: 'DeliveryRequested' }>;

/** The production limits' shape at a test's scale: the flood, from one address, spends a store's allowance in two batches. */
const LIMITS: BudgetLimits = { perBatch: 20, perMinute: 40, burst: 40, trackedStores: 100, clientShare: 1 };

@Global()
@Module({ providers: [{ provide: NEW_SCRIPT_LIMITS, useValue: LIMITS }], exports: [NEW_SCRIPT_LIMITS] })
class TestLimitsModule {}

/** Nobody listens on the discard port: every attempt fails at once, and is recorded all the same. */
const DEAD_RECEIVER = 'https://127.0.0.1:9/hook';

/**
 * Issue 12, availability: a forged SDK flood against a store whose organization has every channel it may have,
 * while a rebuild runs, never keeps /health or an authenticated read from answering; the flood degrades to scripts
 * rejected one by one; what was accepted is recorded with all its deliveries; the rebuild stops when its operator
 * goes away.
 */
describe('availability under a forged SDK flood and a rebuild (embedded)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let service: EmbeddedHarness;

  beforeAll(async () => {
    const modules = EMBEDDED_MODULES.map((module) =>
      module === NotifierModule ? { module: NotifierModule, providers: [{ provide: DELIVERY_CLIENT_SETTINGS, useValue: { timeoutMs: 400, extraCaPems: [] } }] } : module,
    );
    service = await EmbeddedHarness.start({ clock, modules: [...modules, TestLimitsModule], env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  });
  afterAll(() => service.close());

  const webhook = (token: string, body: Record<string, unknown>) =>
    service.request('POST', '/api/v1/webhooks', { token, body: { url: DEAD_RECEIVER, min_severity: 'low', ...body } });

  it('caps channels per organization and per store with 409 conflict', async () => {
    const { token } = await service.tenant(['stores:write', 'webhooks:manage'], { plan: 'enterprise' });
    const store = await service.createStore(token);
    for (let i = 0; i < MAX_ORGANIZATION_WIDE_CHANNELS; i += 1) expect((await webhook(token, {})).status).toBe(201);
    const refused = await webhook(token, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining(`${MAX_ORGANIZATION_WIDE_CHANNELS} organization-wide`) });

    let created = 0;
    while ((await webhook(token, { store_id: store.id })).status === 201) created += 1;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(MAX_CHANNELS_PER_STORE);
    expect((await webhook(token, { store_id: store.id })).body.error.code).toBe('conflict');
  });

  it('keeps /health and GET /api/v1/stores answering while a flood of new scripts and a rebuild are in flight', async () => {
    const { token } = await service.tenant(['stores:read', 'stores:write', 'scripts:read', 'webhooks:manage'], { plan: 'enterprise' });
    const store = await service.createStore(token);
    const channels: string[] = [];
    for (let i = 0; i < MAX_ORGANIZATION_WIDE_CHANNELS; i += 1) channels.push((await webhook(token, {})).body.id);
    for (let answer = await webhook(token, { store_id: store.id }); answer.status === 201; answer = await webhook(token, { store_id: store.id })) {
      channels.push(answer.body.id);
    }

    const runner = service.app.get(ProjectionRunner);
    const rebuilds: Array<Promise<unknown>> = [];
    const rebuildOne = runner.rebuild.bind(runner);
    // The first projection rebuilds at once; the next ones wait for the CLI to go away, so the rebuild is still in
    // flight when it does, however fast the first one was.
    jest.spyOn(runner, 'rebuild').mockImplementation((name, onProgress, signal) => {
      const cliGone = rebuilds.length === 0 ? Promise.resolve() : new Promise((resolve) => signal?.addEventListener('abort', resolve));
      const running = cliGone.then(() => rebuildOne(name, onProgress, signal));
      rebuilds.push(running.catch((error: unknown) => error));
      return running;
    });

    const finished: string[] = [];
    const rebuild = startRebuildOverTheSocket(service.config.opsSocket);
    await rebuild.started;
    const batches = Array.from({ length: 6 }, (_, batch) =>
      Array.from({ length: LIMITS.perBatch }, (_, n) => ({ kind: 'script', src: `https://forged-${batch}-${n}.example.net/x.js`, hash: sri(`forged ${batch} ${n}`) })),
    );
    const flood = Promise.all(batches.map((observations, n) => service.reportSdk(store.sdk_key, observations, { session_id: `forged-${n}` }))).then((answers) => {
      finished.push('flood');
      return answers;
    });
    const health = service.request('GET', '/health').then((answer) => (finished.push('health'), answer));
    const stores = service.request('GET', '/api/v1/stores', { token }).then((answer) => (finished.push('stores'), answer));

    expect((await health).status).toBe(200);
    expect((await stores).status).toBe(200);
    // Stopping the CLI stops the rebuild: the service drops the shadow and the live read models go on.
    rebuild.close();
    await eventually(() => runner.status(), (status) => status.every((projection) => projection.state !== 'rebuilding'));
    expect(rebuilds.length).toBeLessThan(runner.names().length);
    expect(await rebuilds[rebuilds.length - 1]).toMatchObject({ code: 'cancelled' });

    const answers = await flood;
    expect(finished.indexOf('health')).toBeLessThan(finished.indexOf('flood'));
    expect(finished.indexOf('stores')).toBeLessThan(finished.indexOf('flood'));

    // The store's allowance (two batches' worth) is recorded; the other scripts are rejected one by one, with a
    // time to come back, and never the batch.
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(answers.reduce((sum, answer) => sum + answer.body.accepted, 0)).toBe(LIMITS.burst);
    const deferred = answers.find((answer) => answer.body.rejected === LIMITS.perBatch)!;
    expect(deferred.body.rejections[0]).toEqual({ index: 0, reason: expect.stringMatching(/^new script not recorded: this store's limit of new scripts is spent; report it again after \d+ seconds$/) });


    // Everything accepted appears, with a delivery recorded for every channel, behind the 202s.
    const accepted = LIMITS.burst;
    const scripts = await eventually(
      async () => (await service.request('GET', `/api/v1/scripts?store_id=${store.id}&limit=100`, { token })).body.data as unknown[],
      (list) => list.length === accepted,
    );
    expect(scripts).toHaveLength(accepted);
    const eventStore = service.app.get<EventStore>(EVENT_STORE);
    const detectedDeliveries = async () => {
      const requested = await eventStore.readAll({ filter: { streamPrefixes: ['delivery-'], eventTypes: ['DeliveryRequested'] }, maxCount: 100_000 });
      return requested
        .map((event) => event.data as DeliveryRequested['data'])
        .filter((delivery) => channels.includes(delivery.channelId) && delivery.event.type === 'script.detected').length;
    };
    expect(await eventually(detectedDeliveries, (count) => count === accepted * channels.length, { timeoutMs: 60_000, intervalMs: 200 })).toBe(accepted * channels.length);
  }, 120_000);
});

/** `npm run projections -- rebuild --all` as the CLI sends it; `close()` is the operator pressing Ctrl-C. */
function startRebuildOverTheSocket(socketPath: string): { started: Promise<void>; close: () => void } {
  const socket = connect(socketPath);
  socket.once('connect', () => socket.write(`${JSON.stringify({ command: 'projections.rebuild', args: { all: true } })}\n`));
  const started = new Promise<void>((resolve, reject) => {
    createInterface({ input: socket }).once('line', () => resolve());
    socket.once('error', reject);
  });
  return { started, close: () => socket.destroy() };
}
