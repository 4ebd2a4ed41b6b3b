import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@pss/config';
import { runRemote, type OpsArgs } from '@pss/ops';
import { freePort } from '@pss/testkit';

export const REPO = join(__dirname, '..');
export const REGISTER = join(REPO, 'tools', 'register.js');
const READY_WITHIN_MS = 120_000;

export interface ServiceProcess {
  baseUrl: string;
  ops(command: string, args: OpsArgs): Promise<any>;
  stop(): Promise<void>;
}

/**
 * The embedded service as `npm start` runs it, in a child process: its event loop is its own, so the attackers'
 * and the probes' client work is not counted in its answers. TRUST_PROXY=loopback lets the benchmark's clients
 * name their address in `X-Forwarded-For` (one outsider, many shoppers); the receivers' self-signed CA is
 * trusted through NODE_EXTRA_CA_CERTS, as in production, with the notifier's own 8 s timeout.
 */
export async function startServiceProcess(dir: string, receiverCaPem: string): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = join(dir, 'data');
  const caFile = join(dir, 'receiver-ca.pem');
  writeFileSync(caFile, receiverCaPem);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'error',
    TRUST_PROXY: 'loopback',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
  };
  const child = spawn(process.execPath, ['-r', REGISTER, 'apps/embedded/src/main.ts'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lastLines: string[] = [];
  const keep = (chunk: Buffer) => {
    lastLines.push(...chunk.toString().split('\n').filter(Boolean));
    lastLines.splice(0, Math.max(0, lastLines.length - 5));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!running()) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + READY_WITHIN_MS;
  while (!(await fetch(`${baseUrl}/ready`).then((answer) => answer.status === 200, () => false))) {
    if (!running() || performance.now() > deadline) {
      await stop();
      throw new Error(`the service did not become ready: ${lastLines.join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const opsSocket = loadConfig({ DATA_DIR: dataDir }).opsSocket;
  return { baseUrl, ops: (command, args) => runRemote(opsSocket, command, args, () => undefined), stop };
}

export interface Answer {
  status: number;
  json: any;
}

/** One request as a client over loopback; `from` is the client address the service is told (X-Forwarded-For). */
export async function call(url: string, init: { method?: string; token?: string; body?: unknown; from?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.from) headers['x-forwarded-for'] = init.from;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const answer = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await answer.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.status, json };
}
