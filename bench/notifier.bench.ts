import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Envelope } from '@pss/notifier/src/events/webhook-event';
import { DELIVERY_SHARES } from '@pss/notifier/src/delivery/delivery-shares';
import { FairQueue } from '@pss/notifier/src/delivery/fair-queue';
import { webhookBody } from '@pss/notifier/src/outbound/payloads';
import { deliveryHeaders } from '@pss/notifier/src/outbound/signature';
import { WebhookClient } from '@pss/notifier/src/outbound/webhook-client';
import { testCertificate, type TestCertificate } from '@pss/notifier/src/testing/https-receiver';
import type { BenchRow } from './report';
import { best, collectGarbage, log, perSecond, QUICK, type Measured } from './support';

/**
 * Benchmark 5 (notifier): signed webhook deliveries per second to a local HTTPS receiver. Each delivery is what
 * an attempt does on the wire: the envelope formatted, signed (HMAC-SHA256 of `t.<body>`), queued through the
 * fair queue (one organization, one endpoint) and POSTed by the delivery client over verified TLS on kept-alive connections. The baseline
 * POSTs the same body with `https.request` at the same concurrency. The receiver runs in a child process (this
 * file with the argument `receive`), so it has the other core.
 */

const ROUNDS = QUICK ? 1 : 3;
const SECONDS = QUICK ? 0.5 : 3;
const WARM_UP_SECONDS = QUICK ? 0.2 : 1;
const SECRET = 'whsec_0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
const REGISTER = join(__dirname, '..', 'tools', 'register.js');

/** An integrity alert's envelope, about the size of a real one (about 700 bytes). */
const envelope = (n: number): Envelope => ({
  id: `evt_0190c0de00007000800000${String(n).padStart(10, '0')}`,
  type: 'integrity.changed',
  created_at: '2026-06-01T12:00:00.000Z',
  data: {
    alert_id: '0190c0de-0000-7000-8000-000000000001',
    store_id: '0190c0de-0000-7000-8000-000000000002',
    type: 'SCRIPT_INTEGRITY_MISMATCH',
    change_type: null,
    severity: 'high',
    status: 'open',
    source: 'https://cdn.checkout-widgets.io/w.js',
    page: '/checkout',
    details: { script_id: '0190c0de-0000-7000-8000-000000000003', src: 'https://cdn.checkout-widgets.io/w.js', previous_hash: `sha384-${'a'.repeat(64)}`, new_hash: `sha384-${'b'.repeat(64)}` },
    occurrences: 1,
    first_seen_at: '2026-06-01T12:00:00.000Z',
    last_seen_at: '2026-06-01T12:00:00.000Z',
    resolved_at: null,
    auto_resolved: false,
    url: 'https://pss.example/alerts/0190c0de-0000-7000-8000-000000000001',
  },
});

/** Keeps `workers` loops sending until the time is up; counts what was delivered, and refuses any failure. */
async function saturate(seconds: number, workers: number, deliver: (n: number) => Promise<void>): Promise<Measured> {
  let sent = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) await deliver(sent++);
    }),
  );
  return { ops: sent, units: sent, seconds: (performance.now() - started) / 1000 };
}

/** Attempts one organization has under way at once to one endpoint: the concurrency of both sides. */
const AT_ONCE = DELIVERY_SHARES.perOrganizationAtEndpoint;

/** Through the notifier's own parts; twice as many deliveries queued as the queue lets through, so it is never idle. */
function signedDeliveries(url: string, cert: TestCertificate): { run: (seconds: number) => Promise<Measured>; close: () => void } {
  const client = new WebhookClient({ timeoutMs: 8000, extraCaPems: [cert.cert], allowHosts: ['127.0.0.1'] });
  const queue = new FairQueue<void>(DELIVERY_SHARES);
  const lane = { org: 'bench', endpoint: new URL(url).origin };
  const deliver = async (n: number) => {
    await queue.run(lane, async () => {
      const event = envelope(n);
      const body = webhookBody('json', event);
      const outcome = await client.post(url, deliveryHeaders(event.type, `delivery-${n}`, body, SECRET, new Date()), body);
      if (!outcome.delivered) throw new Error(`delivery failed: ${outcome.error}`);
    });
  };
  return { run: (seconds) => saturate(seconds, AT_ONCE * 2, deliver), close: () => client.close() };
}

/** The baseline: bare `https.request`, kept-alive, the same body and concurrency, no signature. */
function rawPosts(url: string, cert: TestCertificate): { run: (seconds: number) => Promise<Measured>; close: () => void } {
  const agent = new Agent({ keepAlive: true, ca: cert.cert });
  const body = JSON.stringify(envelope(0));
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
  const deliver = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request(url, { method: 'POST', headers, agent }, (answer) => {
        answer.resume();
        answer.on('end', () => (answer.statusCode === 204 ? resolve() : reject(new Error(`receiver answered ${answer.statusCode}`))));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return { run: (seconds) => saturate(seconds, AT_ONCE, deliver), close: () => agent.destroy() };
}

/** The receiver, in its own process: reads every body, answers 204, keeps connections alive. */
function startReceiver(cert: TestCertificate): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-r', REGISTER, __filename, 'receive'], {
    env: { ...process.env, BENCH_RECEIVER_TLS: JSON.stringify(cert) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (port) => resolve({ url: `https://127.0.0.1:${port}/hooks/bench`, child }));
  });
}

function receive(): void {
  const server = createServer(JSON.parse(process.env.BENCH_RECEIVER_TLS!) as TestCertificate, (incoming, answer) => {
    incoming.resume();
    incoming.on('end', () => answer.writeHead(204).end());
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
}

export async function notifierBench(): Promise<BenchRow[]> {
  const cert = testCertificate();
  const { url, child } = await startReceiver(cert);
  const ours = signedDeliveries(url, cert);
  const raw = rawPosts(url, cert);
  try {
    const runs = { ours: [] as Measured[], raw: [] as Measured[] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [label, target] of [['raw', raw], ['ours', ours]] as const) {
        collectGarbage();
        await target.run(WARM_UP_SECONDS);
        const run = await target.run(SECONDS);
        runs[label].push(run);
        log(`${label === 'ours' ? 'signed deliveries' : 'raw https POSTs'}, round ${round}: ${Math.round(perSecond(run))}/s (${run.ops})`);
      }
    }
    return [
      {
        id: '5',
        name: `Signed webhook deliveries to a local HTTPS receiver (${AT_ONCE} at a time for one organization's endpoint, kept-alive TLS, best of ${ROUNDS} × ${SECONDS} s)`,
        unit: 'deliveries/s',
        measured: perSecond(best(runs.ours)),
        baseline: perSecond(best(runs.raw)),
        higherIsBetter: true,
        baselineLabel: '`https.request` POSTs of the same body, same concurrency',
      },
    ];
  } finally {
    ours.close();
    raw.close();
    child.removeAllListeners('exit');
    child.kill();
  }
}

if (require.main === module && process.argv[2] === 'receive') receive();
