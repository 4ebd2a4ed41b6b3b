import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { sri } from '@pss/testkit';
import { call, REGISTER, REPO } from './isolation-service';

/**
 * The attackers of the isolation benchmark, each in a child process of its own (this file with the attack as JSON)
 * so that their client work shares neither the service's event loop nor the victim's probes'. The child prints
 * `started` once its attack is under way, stops when its stdin closes (or after `maxSeconds`), then prints one
 * JSON line: what the attack did and what the service answered it.
 */

export type Attack =
  | { kind: 'silent-webhooks'; baseUrl: string; token: string; sdkKey: string; maxSeconds: number }
  | { kind: 'report-loop'; baseUrl: string; token: string; storeId: string; maxSeconds: number }
  | { kind: 'sdk-flood'; baseUrl: string; sdkKey: string; maxSeconds: number };

/** The numbers. */
const SILENT_CHANNELS = 20;
const REPORT_CLIENTS = 4;
const FLOOD_SENDERS = 4;
/** Every loop is bounded in count as well as in time. */
const MAX_REQUESTS_PER_LOOP = 50_000;
/** The one address the attacker sends from. */
const ATTACKER_ADDRESS = '203.0.113.66';
/** The largest value a headers observation may carry (docs/sdk.md). */
const HEADER_VALUE_MAX = 8192;

type Tally = Record<string, number>;
const count = (tally: Tally, key: string) => (tally[key] = (tally[key] ?? 0) + 1);
const said = (tally: Tally) =>
  Object.entries(tally)
    .map(([status, n]) => `${n.toLocaleString('en-US')} × ${status}`)
    .join(', ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `send` back to back until stopped or MAX_REQUESTS_PER_LOOP, tallying what each answered. */
async function loop(stopped: () => boolean, tally: Tally, send: (i: number) => Promise<string>): Promise<void> {
  for (let i = 0; i < MAX_REQUESTS_PER_LOOP && !stopped(); i += 1) count(tally, await send(i).catch(() => 'network error'));
}

/** Accepts TCP connections and never says a word: the TLS handshake of every delivery waits out the timeout. */
async function silentReceiver(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const newScripts = (count: number, name: string) =>
  Array.from({ length: count }, (_, i) => ({ kind: 'script', src: `https://junk.attacker.example/${name}-${i}.js`, hash: sri(`${name}-${i}`) }));
const batch = (observations: unknown[], session: string) => ({ page_url: 'https://shop.attacker.example/checkout', session_id: session, sdk_version: '1.0.0', observations });

/** (1) Tenant A: 20 channels to a receiver that never answers, and a batch of 10 new scripts on its store every 0.5 s. */
async function silentWebhooks(attack: Extract<Attack, { kind: 'silent-webhooks' }>, stopped: () => boolean, started: () => void): Promise<string> {
  const silent = await silentReceiver();
  const channels: string[] = [];
  const refused: Tally = {};
  for (let i = 0; i < SILENT_CHANNELS; i += 1) {
    const answer = await call(`${attack.baseUrl}/api/v1/webhooks`, { method: 'POST', token: attack.token, body: { url: `https://127.0.0.1:${silent.port}/a/${i}`, min_severity: 'low' } });
    if (answer.status === 201) channels.push(answer.json.id);
    else count(refused, String(answer.status));
  }
  started();
  const statuses: Tally = {};
  let recorded = 0;
  let rejected = 0;
  await loop(stopped, statuses, async (i) => {
    const answer = await call(`${attack.baseUrl}/sdk/v1/events?key=${attack.sdkKey}`, { method: 'POST', from: ATTACKER_ADDRESS, body: batch(newScripts(10, `hog-${i}`), `hog-${i}`) });
    recorded += answer.json?.accepted ?? 0;
    rejected += answer.json?.rejected ?? 0;
    await sleep(500);
    return String(answer.status);
  });
  const held = silent.connections();
  // The attacker leaves: its channels go, so its retries do not run into the next attack's phase.
  await silent.close();
  for (const id of channels) await call(`${attack.baseUrl}/api/v1/webhooks/${id}`, { method: 'DELETE', token: attack.token });
  const refusals = Object.keys(refused).length ? ` (${said(refused)} refused)` : '';
  return `tenant A: ${channels.length} webhook channels${refusals} on a local receiver that accepts TCP and never answers (${held} connections opened to it), and a batch of 10 new scripts on A's store every 0.5 s (${said(statuses)}; ${recorded} new scripts recorded, ${rejected} left out by A's budget)`;
}

/** (2) Tenant A: 4 clients looping GET /api/v1/reports/pci on its own store with its own token, back to back. */
async function reportLoop(attack: Extract<Attack, { kind: 'report-loop' }>, stopped: () => boolean, started: () => void): Promise<string> {
  started();
  const statuses: Tally = {};
  const url = `${attack.baseUrl}/api/v1/reports/pci?store_id=${attack.storeId}`;
  const headers = { authorization: `Bearer ${attack.token}` };
  const client = () =>
    loop(stopped, statuses, async () => {
      const answer = await fetch(url, { headers });
      await answer.arrayBuffer();
      return String(answer.status);
    });
  await Promise.all(Array.from({ length: REPORT_CLIENTS }, client));
  return `tenant A: ${REPORT_CLIENTS} clients looping \`GET /api/v1/reports/pci\` (a new snapshot each) on A's store with A's token (${said(statuses)})`;
}

/**
 * (3) An outsider with the victim store's public key, from one address, 4 senders back to back, in turn: 50 junk
 * new scripts with page headers of 28 values of the largest size (about 235 KB, new content each time); headers
 * with values over the largest size; a headers observation whose batch is over the 256 KiB body limit.
 */
async function sdkFlood(attack: Extract<Attack, { kind: 'sdk-flood' }>, stopped: () => boolean, started: () => void): Promise<string> {
  const filler = 'x'.repeat(HEADER_VALUE_MAX + 800);
  const headers = (names: number, length: number, tag: string) =>
    ({ kind: 'headers', headers: Object.fromEntries(Array.from({ length: names }, (_, i) => [`x-junk-${i}`, `${tag}-${i}-${filler}`.slice(0, length)])) });
  const body = (n: number, sender: number) => {
    const tag = `${sender}-${n}`;
    if (n % 3 === 0) return batch([...newScripts(50, `flood-${tag}`), headers(28, HEADER_VALUE_MAX, tag)], `flood-${sender}`);
    if (n % 3 === 1) return batch([headers(20, HEADER_VALUE_MAX + 800, tag)], `flood-${sender}`);
    return batch([headers(40, HEADER_VALUE_MAX, tag)], `flood-${sender}`);
  };
  started();
  const statuses: Tally = {};
  let recorded = 0;
  let rejected = 0;
  const sender = (_: unknown, id: number) =>
    loop(stopped, statuses, async (n) => {
      const answer = await call(`${attack.baseUrl}/sdk/v1/events?key=${attack.sdkKey}`, { method: 'POST', from: ATTACKER_ADDRESS, body: JSON.stringify(body(n, id)) });
      recorded += answer.json?.accepted ?? 0;
      rejected += answer.json?.rejected ?? 0;
      return String(answer.status);
    });
  await Promise.all(Array.from({ length: FLOOD_SENDERS }, sender));
  return `an outsider with the victim store's public SDK key, from one address: ${FLOOD_SENDERS} senders back to back, junk new scripts and oversized header observations (${said(statuses)}; ${recorded} observations recorded, ${rejected} rejected)`;
}

const ATTACKS = { 'silent-webhooks': silentWebhooks, 'report-loop': reportLoop, 'sdk-flood': sdkFlood } as const;

async function attackerMain(attack: Attack): Promise<void> {
  let stop = false;
  process.stdin.resume();
  process.stdin.once('end', () => (stop = true));
  const timer = setTimeout(() => (stop = true), attack.maxSeconds * 1000);
  const run = ATTACKS[attack.kind] as (attack: Attack, stopped: () => boolean, started: () => void) => Promise<string>;
  const summary = await run(attack, () => stop, () => process.stdout.write('started\n'));
  clearTimeout(timer);
  process.stdout.write(`${JSON.stringify({ summary })}\n`);
  process.exit(0);
}

/** Starts `attack` in its child process, once it is under way; `stop()` ends it and answers what it did. */
export async function startAttack(attack: Attack): Promise<{ stop: () => Promise<string> }> {
  const child = spawn(process.execPath, ['-r', REGISTER, __filename, JSON.stringify(attack)], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit');
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the ${attack.kind} attacker exited with ${(await exited)[0]} before it said what it did`);
    return line.value;
  };
  const first = await next();
  if (first !== 'started') throw new Error(`the ${attack.kind} attacker said ${first}`);
  return {
    stop: async () => {
      child.stdin.end();
      const { summary } = JSON.parse(await next()) as { summary: string };
      await exited;
      return summary;
    },
  };
}

if (require.main === module) {
  attackerMain(JSON.parse(process.argv[2]) as Attack).catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
