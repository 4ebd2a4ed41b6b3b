import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { SCRIPTS, type ScriptDocument } from '@pss/contracts';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { OpsRegistry } from '@pss/ops';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { Access } from '@pss/dashboard/src/access/access.service';
import { recoveryCodeHash } from '@pss/dashboard/src/access/recovery-codes';
import { FLUSH_INTERVAL_MS } from '@pss/api-gateway/src/sdk/intake/sightings-flusher';
import { UnlimitedNewScriptsModule } from './new-scripts.bench';
import type { BenchRow } from './report';
import { log, QUICK, withTempDir } from './support';
import { bestOfRounds, ROUNDS, SECONDS, startEmbeddedService, WARM_UP_SECONDS, type EmbeddedService, type Target } from './targets';

/**
 * Benchmark 16 (issue 32): the dashboard on a big store. One store is fed through the SDK's own endpoint, as
 * shoppers' browsers feed it: SCRIPTS new scripts in page views of PER_VIEW (each a `ScriptDetected`, decided by
 * the store's default policies), then SIGHTINGS sightings of them in further page views (counted at the edge,
 * recorded per flush window). Then, signed in as the organization's owner through the dashboard's own sign-in (a
 * recovery code over HTTP: a real session, checked on every request), the time per request of the store home, the
 * review inbox and the inventory, each beside the API's `GET /api/v1/scripts` for the same store and rows, one
 * connection at a time from the load generator's process (so a figure is the server's time plus loopback, with no
 * queueing). The issue's bar: p95 of a page ≤ 2× the API call (the report's ratio ≥ 0.5), and at most 60 KB of
 * JavaScript (gzip) loaded by any page.
 */

const SCRIPTS_IN_STORE = QUICK ? 500 : 5_000;
const SIGHTINGS = QUICK ? 2_000 : 20_000;
/** Observations per SDK batch: one page view of a script-heavy checkout. */
const PER_VIEW = 50;
const JS_LIMIT_BYTES = 60 * 1024;
const OWNER = 'owner@bench.example';
const RECOVERY_CODE = 'abcd-efgh-jkmn-pqrs';
const ONE_AT_A_TIME = 1;

interface BenchStore {
  id: string;
  orgId: string;
  sdkKey: string;
  domain: string;
}

const sri = (content: string): string => `sha384-${createHash('sha384').update(content).digest('base64')}`;

/** The n-th script of the checkout: 40 vendors on 7 CDNs, so the inbox has groups to make. */
const scriptObservation = (n: number) => ({
  kind: 'script',
  src: `https://cdn${n % 7}.vendor-${n % 40}.example.net/js/widget-${n}.js`,
  hash: sri(`widget ${n}`),
  hash_source: 'sdk',
  size_bytes: 1000 + n,
});

async function api(service: EmbeddedService, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function createStore(service: EmbeddedService): Promise<BenchStore> {
  const domain = 'checkout.bench-dashboard.example.com';
  const created = await api(service, 'POST', '/api/v1/stores', { domain, name: 'Big checkout', payment_pages: [{ url_pattern: '/checkout/*', payment_methods: ['card', 'pix'] }] });
  return { id: created.id, orgId: created.org_id, sdkKey: created.sdk_key, domain };
}

/** One page view as the SDK posts it; every observation must be accepted (a budget or a rate limit would skew the store). */
async function pageView(service: EmbeddedService, store: BenchStore, view: number, observations: unknown[]): Promise<void> {
  const answer = await fetch(`${service.baseUrl}/sdk/v1/events?key=${store.sdkKey}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ page_url: `https://${store.domain}/checkout/pay`, session_id: `shopper-${view}`, sdk_version: '1.0.0', observations }),
  });
  const text = await answer.text();
  if (answer.status !== 202 || !/"rejected":0\b/.test(text)) throw new Error(`page view ${view} answered ${answer.status} ${text.slice(0, 300)}`);
}

/** Polls `done` every half second until it holds, or fails saying what was awaited. */
async function until(what: string, done: () => Promise<boolean>, seconds = 600): Promise<void> {
  for (let waited = 0; waited < seconds * 1000; waited += 500) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The store fed through the SDK endpoint: first every script new, then page views of known ones; done when the
 * read model counts every sighting (the detection's own included) and the event store has been still for longer
 * than a flush window, so no policy decision or projection runs while the pages are measured.
 */
async function feed(service: EmbeddedService, store: BenchStore): Promise<void> {
  const started = Date.now();
  let view = 0;
  for (let first = 0; first < SCRIPTS_IN_STORE; first += PER_VIEW, view += 1) {
    await pageView(service, store, view, Array.from({ length: Math.min(PER_VIEW, SCRIPTS_IN_STORE - first) }, (_, n) => scriptObservation(first + n)));
  }
  const scripts = service.app.get<ReadStore>(READ_STORE).collection<ScriptDocument>(SCRIPTS);
  await until('every new script in the inventory', async () => (await scripts.count({ org_id: store.orgId, store_id: store.id })) === SCRIPTS_IN_STORE);
  log(`dashboard: ${SCRIPTS_IN_STORE} scripts detected through the SDK in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (let sighted = 0; sighted < SIGHTINGS; sighted += PER_VIEW, view += 1) {
    await pageView(service, store, view, Array.from({ length: PER_VIEW }, (_, n) => scriptObservation((sighted + n) % SCRIPTS_IN_STORE)));
  }
  const counted = async () => (await scripts.find({ org_id: store.orgId, store_id: store.id })).reduce((sum, script) => sum + script.sightings, 0);
  await until(`${SIGHTINGS} sightings counted`, async () => (await counted()) >= SCRIPTS_IN_STORE + SIGHTINGS);
  const events = service.app.get<EventStore>(EVENT_STORE);
  let head = await events.headPosition();
  await until('the event store to be still', async () => {
    await new Promise((resolve) => setTimeout(resolve, FLUSH_INTERVAL_MS + 1000));
    const now = await events.headPosition();
    const still = now === head;
    head = now;
    return still;
  });
  log(`dashboard: ${SIGHTINGS} sightings counted, ${view} page views, ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
}

/**
 * The owner's session as a person gets one: the invitation redeemed (its passkey never used) with one recovery
 * code, then the sign-in form posted with its CSRF token. The cookie is checked on every measured request.
 */
async function ownerSession(service: EmbeddedService, orgId: string): Promise<string> {
  const { invitation_link: link } = (await service.app.get(OpsRegistry).run('org.invite', { org: orgId })) as { invitation_link: string };
  const access = service.app.get(Access);
  const token = link.split('/').pop()!;
  let invitation = await access.openInvitation(token, new Date());
  await until('the owner invitation in the read model', async () => (invitation ??= await access.openInvitation(token, new Date())) !== null, 30);
  const passkey = { id: randomBytes(16).toString('base64url'), publicKey: 'unused', counter: 0, transports: [], createdAt: new Date().toISOString(), lastUsedAt: null };
  await access.redeem(invitation!, randomUUID(), passkey, [recoveryCodeHash(RECOVERY_CODE)], new Date());
  const signInPage = await fetch(`${service.baseUrl}/dashboard/sign-in`);
  const anonymous = signInPage.headers.getSetCookie()[0].split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())![1];
  const signedIn = await fetch(`${service.baseUrl}/dashboard/sign-in/recovery`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: anonymous, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email: OWNER, code: RECOVERY_CODE }).toString(),
  });
  const cookie = signedIn.headers.getSetCookie().find((header) => header.startsWith('__Host-pss-dashboard='))?.split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`the owner's sign-in answered ${signedIn.status}`);
  return cookie;
}

interface Pair {
  id: string;
  title: string;
  page: Target;
  api: Target;
}

/** The page answers 200 with the rows the API lists first (the same rows), and the JavaScript it loads, gzipped. */
async function checkedScriptBytes(service: EmbeddedService, pair: Pair, mustShow: string): Promise<number> {
  const answer = await fetch(pair.page.url, { headers: pair.page.headers });
  const page = await answer.text();
  if (answer.status !== 200 || !page.includes(mustShow)) throw new Error(`${pair.page.url} answered ${answer.status} without ${mustShow}: ${page.slice(0, 300)}`);
  let bytes = 0;
  for (const [, src] of page.matchAll(/<script[^>]* src="([^"]+)"/g)) {
    const script = await fetch(`${service.baseUrl}${src}`, { headers: pair.page.headers });
    if (script.status !== 200) throw new Error(`${src} answered ${script.status}`);
    bytes += gzipSync(Buffer.from(await script.arrayBuffer()), { level: 9 }).length;
  }
  return bytes;
}

export async function dashboardBench(): Promise<BenchRow[]> {
  return withTempDir('dashboard', async (dataDir) => {
    const service = await startEmbeddedService(dataDir, ['stores:read', 'stores:write', 'scripts:read'], [UnlimitedNewScriptsModule]);
    try {
      const store = await createStore(service);
      await feed(service, store);
      const cookie = await ownerSession(service, store.orgId);
      const asOwner = { cookie, 'accept-language': 'en' };
      const bearer = { authorization: `Bearer ${service.token}` };
      const target = (label: string, url: string, headers: Record<string, string>): Target => ({ label, url: `${service.baseUrl}${url}`, headers, connections: ONE_AT_A_TIME });
      const storeScripts = target('API GET /scripts?store_id', `/api/v1/scripts?store_id=${store.id}`, bearer);
      const toReview = target('API GET /scripts?store_id&status=needs_review', `/api/v1/scripts?store_id=${store.id}&status=needs_review`, bearer);
      const pairs: Pair[] = [
        { id: '16a', title: 'Store home `GET /dashboard`', page: target('dashboard home', '/dashboard', asOwner), api: storeScripts },
        { id: '16b', title: 'Review inbox `GET /dashboard/review?store=…`', page: target('dashboard review inbox', `/dashboard/review?store=${store.id}`, asOwner), api: toReview },
        { id: '16c', title: 'Inventory `GET /dashboard/inventory?store_id=…`', page: target('dashboard inventory', `/dashboard/inventory?store_id=${store.id}`, asOwner), api: storeScripts },
      ];
      const firstOf = async (api: Target) => ((await (await fetch(api.url, { headers: api.headers })).json()) as { data: Array<{ src: string }> }).data[0].src;
      const scriptBytes = new Map<Pair, number>();
      scriptBytes.set(pairs[0], await checkedScriptBytes(service, pairs[0], 'Big checkout'));
      scriptBytes.set(pairs[1], await checkedScriptBytes(service, pairs[1], await firstOf(toReview)));
      scriptBytes.set(pairs[2], await checkedScriptBytes(service, pairs[2], await firstOf(storeScripts)));
      const best = await bestOfRounds([storeScripts, toReview, ...pairs.map((pair) => pair.page)]);
      const size = `a store of ${SCRIPTS_IN_STORE.toLocaleString('en-US')} scripts and ${SIGHTINGS.toLocaleString('en-US')} sightings`;
      const how = `1 connection, best of ${ROUNDS} × ${SECONDS} s after ${WARM_UP_SECONDS} s warm-up`;
      return pairs.flatMap((pair) => {
        const page = best.get(pair.page)!;
        const api = best.get(pair.api)!;
        const baselineLabel = `API \`${pair.api.label.slice(4)}\`, same rows`;
        const bytes = scriptBytes.get(pair)!;
        return [
          { id: pair.id, name: `${pair.title}, ${size}: p50 (${how})`, unit: 'ms', measured: page.p50Ms, baseline: api.p50Ms, higherIsBetter: false, baselineLabel },
          { id: pair.id, name: `${pair.title}, ${size}: p95, aim ≤ 2× the API (${how})`, unit: 'ms', measured: page.p95Ms, baseline: api.p95Ms, higherIsBetter: false, baselineLabel },
          {
            id: pair.id,
            name: `${pair.title}: JavaScript it loads, gzip -9 (limit ${JS_LIMIT_BYTES.toLocaleString('en-US')} bytes: ${bytes <= JS_LIMIT_BYTES ? 'within' : '**over**'})`,
            unit: 'bytes',
            measured: bytes,
            baseline: null,
            higherIsBetter: false,
            baselineLabel: '—',
          },
        ];
      });
    } finally {
      await service.close();
    }
  });
}
