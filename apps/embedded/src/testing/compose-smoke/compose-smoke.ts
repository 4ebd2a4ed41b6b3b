import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, sri } from '@pss/testkit';
import { HttpsReceiver, testCertificate } from '@pss/notifier/src/testing/https-receiver';
import { signedWith } from '@pss/notifier/src/testing/signature-check';
import { Compose, containerRuntimeAnswers } from './compose';

/**
 * The compose smoke test: `docker compose up --wait` on the repository's docker-compose.yml, then one organization
 * and token through the admin CLI, one store, one SDK batch with a new script, and the signed script.detected
 * webhook it causes, received here and verified as a customer would; `docker compose down -v` whatever happened.
 * Run by .github/workflows/distributed.yml, and by hand:
 *   node -r ./tools/register.js apps/embedded/src/testing/compose-smoke/compose-smoke.ts
 */
export const SKIPPED = 'no container runtime: compose smoke skipped';

const ROOT = resolve(__dirname, '../../../../..');
const API = 'http://127.0.0.1:3000';
const SCOPES = ['stores:write', 'webhooks:manage', 'scripts:read'];
/** A first delivery waits for the batch to cross three services and Kafka twice: generous, for a cold CI runner. */
const DELIVERY_TIMEOUT_MS = 120_000;

async function main(): Promise<void> {
  if (!containerRuntimeAnswers()) {
    process.stdout.write(`${SKIPPED}\n`);
    return;
  }
  // The notifier (uid 1000 in its image) reads the receiver's certificate from this directory.
  const caDir = mkdtempSync(join(tmpdir(), 'pss-compose-smoke-'));
  chmodSync(caDir, 0o755);
  writeFileSync(join(caDir, 'receiver.pem'), testCertificate().cert, { mode: 0o644 });
  const receiver = await HttpsReceiver.start('0.0.0.0');
  const compose = new Compose(ROOT, ['docker-compose.yml', '.ci/compose-smoke.yml'], { SMOKE_CA_DIR: caDir });
  try {
    compose.run(['up', '--build', '--wait', '--wait-timeout', '900']);
    await smoke(compose, receiver);
    process.stdout.write('compose smoke passed: store created, SDK batch accepted, signed script.detected received\n');
  } catch (error) {
    compose.run(['logs', '--tail', '80']);
    throw error;
  } finally {
    compose.run(['down', '-v']);
    await receiver.close();
    rmSync(caDir, { recursive: true, force: true });
  }
}

async function smoke(compose: Compose, receiver: HttpsReceiver): Promise<void> {
  const org = compose.admin(['org', 'create', '--name', 'Compose Smoke', '--owner-email', 'owner@smoke.example']);
  const { token } = compose.admin(['token', 'create', '--org', org.id, '--name', 'compose-smoke', '--scopes', SCOPES.join(',')]);
  const api = (path: string, body: unknown) => post(path, body, { authorization: `Bearer ${token}` });

  const store = await api('/api/v1/stores', { domain: `smoke-${Date.now().toString(36)}.com.br` });
  expectStatus('create store', store, 201);
  const channel = await api('/api/v1/webhooks', {
    url: receiver.url('/smoke', 'host.docker.internal'),
    store_id: store.body.id,
    events: ['script.detected'],
  });
  expectStatus('create webhook', channel, 201);
  const batch = await post(`/sdk/v1/events?key=${store.body.sdk_key}`, {
    page_url: `https://www.${store.body.domain}/checkout`,
    session_id: 'compose-smoke',
    sdk_version: '1.4.0',
    observations: [{ kind: 'script', src: 'https://cdn.checkout-widgets.io/smoke.js', hash: sri('compose smoke') }],
  });
  if (!batch.ok) throw new Error(`SDK batch: ${batch.status} ${batch.text}`);

  const [delivery] = await eventually(
    () => receiver.received.filter((request) => request.path === '/smoke'),
    (received) => received.length > 0,
    { timeoutMs: DELIVERY_TIMEOUT_MS, intervalMs: 500 },
  );
  if (delivery.headers['x-service-event'] !== 'script.detected') throw new Error(`webhook: got ${delivery.headers['x-service-event']}`);
  if (!signedWith(delivery, channel.body.secret)) throw new Error('webhook: X-Service-Signature does not verify with the channel secret');
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ ok: boolean; status: number; body: any; text: string }> {
  const response = await fetch(`${API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { ok: response.ok, status: response.status, body: parsed, text };
}

function expectStatus(step: string, answer: { status: number; text: string }, status: number): void {
  if (answer.status !== status) throw new Error(`${step}: ${answer.status} ${answer.text}`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`compose smoke failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
