import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const REGISTER = join(ROOT, 'tools/register.js');
/** These tests start the service two or three times and run the admin CLI, each a process booting the service. */
const PROCESS_TEST_TIMEOUT_MS = 90_000;

/**
 * The service as users run it: `npm start`'s entry in its own process, the admin CLI in another, talking over
 * the control socket; SIGTERM stops it cleanly, SIGKILL loses nothing acknowledged.
 */
describe('embedded service process', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess | undefined;

  const env = () => ({ ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', MODE: 'embedded' });

  const start = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['-r', REGISTER, 'apps/embedded/src/main.ts'], { cwd: ROOT, env: env(), stdio: 'ignore' });
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false);
      if (ready) return child;
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    throw new Error('service did not become ready');
  };

  const stopped = (child: ChildProcess) => new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  const admin = (...args: string[]) => {
    const run = spawnSync(process.execPath, ['-r', REGISTER, 'tools/cli/admin.ts', ...args], { cwd: ROOT, env: env(), encoding: 'utf8' });
    return { status: run.status, json: JSON.parse(run.stdout.trim().split('\n').pop()!) };
  };

  const listStores = (token: string) =>
    fetch(`http://127.0.0.1:${port}/api/v1/stores`, { headers: { authorization: `Bearer ${token}` } });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-process-'));
    port = await new Promise<number>((r) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => r(free));
      });
    });
  });

  afterEach(() => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a token the admin CLI prints at once, stops it at once when revoked, and exits 0 on SIGTERM', async () => {
    server = await start();
    const org = admin('org', 'create', '--name', 'Acme', '--plan', 'growth', '--billing-mode', 'partner', '--owner-email', 'o@acme.example');
    expect(org.status).toBe(0);
    const issued = admin('token', 'create', '--org', org.json.id, '--name', 'ci', '--scopes', 'stores:read');
    expect(issued.json.token).toHaveLength(65);
    expect((await listStores(issued.json.token)).status).toBe(200);

    expect(admin('token', 'revoke', '--org', org.json.id, '--prefix', issued.json.prefix).json.status).toBe('Revoked');
    expect((await listStores(issued.json.token)).status).toBe(401);

    const exit = stopped(server);
    server.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(join(dataDir, 'ops.sock'))).toBe(false);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('loses nothing acknowledged when killed: after a restart the read models have it all', async () => {
    server = await start();
    const org = admin('org', 'create', '--name', 'Acme');
    const tokens = [1, 2, 3].map((n) => admin('token', 'create', '--org', org.json.id, '--name', `t${n}`, '--scopes', 'stores:read').json);
    const exit = stopped(server);
    server.kill('SIGKILL');
    await exit;

    server = await start();
    for (const token of tokens) expect((await listStores(token.token)).status).toBe(200);
    expect(admin('token', 'list', '--org', org.json.id).json.data).toHaveLength(3);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('prints an error object and exits 1 when the admin CLI is misused', () => {
    const missing = admin('token', 'create', '--org', '0190c0de-0000-7000-8000-000000000000', '--name', 'x', '--scopes', 'stores:read', '--data-dir', dataDir);
    expect(missing.status).toBe(1);
    expect(missing.json.error.code).toBe('not_found');
  });
});
