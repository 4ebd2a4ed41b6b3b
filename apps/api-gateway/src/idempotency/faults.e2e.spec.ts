import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BusFaults } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { COMMANDS } from '@pss/contracts';
import { createServiceApp } from '@pss/host';
import { OpsRegistry } from '@pss/ops';
import { eventually } from '@pss/testkit';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';

/**
 * The whole service with the bus at its worst, as Kafka may be: commands and events delivered twice, late and out
 * of order, event handlers crashing once. Every create must take effect exactly once, and never answer 404 or 409
 * for its own write, whichever delivery answers.
 */
const CREATES: string[] = [COMMANDS.storeCreate, COMMANDS.ruleCreate, COMMANDS.policyCreate, COMMANDS.organizationCreate, COMMANDS.channelCreate];
const SCOPES = 'stores:read,stores:write,webhooks:manage,rules:write,scripts:read,policies:read,policies:write,orgs:manage';
const MAX_ATTEMPTS = 40;

interface Answer {
  status: number;
  body: any;
}

/** The embedded service on a faulty bus, with a token that may create everything. */
class FaultyService {
  private constructor(
    private readonly app: NestFastifyApplication,
    private readonly dataDir: string,
    private readonly token: string,
  ) {}

  static async start(faults: BusFaults, requestTimeoutMs: number): Promise<FaultyService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pss-faults-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '1000000000', BUS_REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
    const app = await createServiceApp({ name: 'embedded', modules: EMBEDDED_MODULES, config, busFaults: faults });
    const ops = app.get(OpsRegistry);
    const org = (await ops.run('org.create', { name: 'Acme Checkout', 'owner-email': 'owner@acme.example' })) as { id: string };
    const issued = (await ops.run('token.create', { org: org.id, name: 'faults', scopes: SCOPES })) as { token: string };
    return new FaultyService(app, dataDir, issued.token);
  }

  async close(): Promise<void> {
    await this.app.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  async post(url: string, body: unknown, key?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' };
    if (key) headers['idempotency-key'] = key;
    const response = await this.app.getHttpAdapter().getInstance().inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
    return { status: response.statusCode, body: response.json() };
  }

  /** What a careful client does: the same request with the same key until it is answered other than 503. */
  async postUntilAnswered(url: string, body: unknown, key: string): Promise<Answer & { statuses: number[] }> {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const answer = await this.post(url, body, key);
      statuses.push(answer.status);
      if (answer.status !== 503 && !(answer.status === 409 && answer.body.error.code === 'idempotency_in_progress')) return { ...answer, statuses };
    }
    throw new Error(`${url} not answered in ${MAX_ATTEMPTS} attempts: ${statuses.join(', ')}`);
  }

  async listed(url: string): Promise<Array<{ id: string; [field: string]: unknown }>> {
    const response = await this.app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.token}` } });
    return response.json().data;
  }
}

const ids = (resources: Array<{ id: string }>): string[] => resources.map((resource) => resource.id).sort();

describe('Creates retried with their Idempotency-Key over a late, duplicating bus (embedded, faults on)', () => {
  // Short enough that a command delivered late outlives its caller's wait (and is dropped past its deadline).
  const faults: BusFaults = { duplicateRate: 0.5, maxDelayMs: 500, handlerFailureRate: 0.2, seed: 7 };
  let service: FaultyService;

  beforeAll(async () => {
    service = await FaultyService.start(faults, 300);
  }, 60_000);
  afterAll(() => service?.close());

  it('creates each store once, answering every retry with that store', async () => {
    const domains = Array.from({ length: 12 }, (_, n) => `faulty${n}-${Date.now().toString(36)}.com.br`);

    const answers = await Promise.all(domains.map((domain) => service.postUntilAnswered('/api/v1/stores', { domain }, `create-${domain}`)));

    expect(answers.map((answer) => answer.status)).toEqual(domains.map(() => 201));
    expect(answers.flatMap((answer) => answer.statuses).filter((status) => status === 404 || status === 409)).toEqual([]);
    expect(answers.map((answer) => answer.body.domain)).toEqual(domains);
    const listed = (await service.listed('/api/v1/stores?limit=100')).filter((store) => domains.includes(String(store.domain)));
    expect(ids(listed)).toEqual(ids(answers.map((answer) => answer.body)));
  }, 120_000);

  it('creates each organization once, answering every retry with that organization', async () => {
    const names = Array.from({ length: 4 }, (_, n) => `Faulty Brasil ${n}`);

    const answers = await Promise.all(names.map((name) => service.postUntilAnswered('/api/v1/organizations', { name, owner_email: 'owner@acme.example' }, `org-${name}`)));

    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 201));
    const listed = (await service.listed('/api/v1/organizations?limit=100')).filter((org) => names.includes(String(org.name)));
    expect(ids(listed)).toEqual(ids(answers.map((answer) => answer.body)));
  }, 120_000);

  it('creates each webhook once, answering every retry with that webhook and its secret', async () => {
    const urls = Array.from({ length: 5 }, (_, n) => `https://hooks${n}.example.com/pss`);

    const answers = await Promise.all(urls.map((url) => service.postUntilAnswered('/api/v1/webhooks', { url }, `hook-${url}`)));

    expect(answers.map((answer) => answer.status)).toEqual(urls.map(() => 201));
    expect(answers.flatMap((answer) => answer.statuses).filter((status) => status === 404 || status === 409)).toEqual([]);
    expect(answers.map((answer) => answer.body.secret)).toEqual(urls.map(() => expect.stringMatching(/^whsec_[0-9a-f]{64}$/)));
    expect(ids(await service.listed('/api/v1/webhooks?limit=100'))).toEqual(ids(answers.map((answer) => answer.body)));
  }, 120_000);
});

/**
 * Every command delivered twice (a rebalance before the offset commit), the caller waiting long enough for either
 * copy: one effect per create, and both deliveries answer the created resource, not 409 or 404, which the caller
 * would get whenever the duplicate's reply came first.
 */
describe('Creates delivered twice to a waiting caller (embedded, faults on)', () => {
  const replies: Array<{ pattern: string; err?: unknown }> = [];
  const faults: BusFaults = {
    duplicateRate: 1,
    maxDelayMs: 100,
    handlerFailureRate: 0.2,
    seed: 13,
    onReply: (pattern, reply) => replies.push({ pattern, err: reply.err }),
  };
  let service: FaultyService;
  let storeId: string;

  beforeAll(async () => {
    service = await FaultyService.start(faults, 5_000);
    storeId = (await service.post('/api/v1/stores', { domain: 'doubled.com.br' })).body.id;
  }, 60_000);
  afterAll(() => service?.close());
  beforeEach(() => replies.splice(0));

  /** The replies of both deliveries of `count` creates (the second may come after the caller was answered), the failed ones. */
  const failedCreates = async (count: number) => {
    const createReplies = () => replies.filter((reply) => CREATES.includes(reply.pattern));
    await eventually(createReplies, (seen) => seen.length >= 2 * count);
    return createReplies().filter((reply) => reply.err !== undefined);
  };

  /** Posts each body once; each answers 201, every delivery's reply too, and each made exactly one resource. */
  const createsEachOnce = async (url: string, bodies: Array<Record<string, unknown>>, listUrl: string, field: string) => {
    const answers = await Promise.all(bodies.map((body) => service.post(url, body)));

    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 201));
    expect(await failedCreates(bodies.length)).toEqual([]);
    const sent = bodies.map((body) => body[field]);
    const listed = (await service.listed(listUrl)).filter((resource) => sent.includes(resource[field]));
    expect(ids(listed)).toEqual(ids(answers.map((answer) => answer.body)));
    return answers;
  };

  it('creates each store once', async () => {
    const domains = Array.from({ length: 8 }, (_, n) => `twice${n}.com.br`);

    await createsEachOnce('/api/v1/stores', domains.map((domain) => ({ domain })), '/api/v1/stores?limit=100', 'domain');
  }, 60_000);

  it('creates each rule once', async () => {
    const values = Array.from({ length: 8 }, (_, n) => `skimmer${n}.example.net`);

    const bodies = values.map((value) => ({ store_id: storeId, type: 'block', target: 'domain', value }));
    await createsEachOnce('/api/v1/rules', bodies, `/api/v1/rules?store_id=${storeId}&limit=100`, 'value');
  }, 60_000);

  it('creates each policy once', async () => {
    const names = Array.from({ length: 8 }, (_, n) => `Doubled policy ${n}`);

    await createsEachOnce('/api/v1/policies', names.map((name) => ({ name, action: 'needs_review' })), '/api/v1/policies?limit=100', 'name');
  }, 60_000);

  it('creates each organization once', async () => {
    const names = Array.from({ length: 4 }, (_, n) => `Doubled Brasil ${n}`);

    await createsEachOnce('/api/v1/organizations', names.map((name) => ({ name, owner_email: 'owner@acme.example' })), '/api/v1/organizations?limit=100', 'name');
  }, 60_000);

  it('creates each webhook once, both deliveries answering the same secret', async () => {
    const urls = Array.from({ length: 5 }, (_, n) => `https://twice${n}.example.com/pss`);

    const answers = await createsEachOnce('/api/v1/webhooks', urls.map((url) => ({ url })), '/api/v1/webhooks?limit=100', 'url');
    expect(answers.map((answer) => answer.body.secret)).toEqual(urls.map(() => expect.stringMatching(/^whsec_[0-9a-f]{64}$/)));
  }, 60_000);
});
