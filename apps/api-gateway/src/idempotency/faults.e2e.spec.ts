import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BusFaults } from '@pss/bus';
import { loadConfig } from '@pss/config';
import { EMBEDDED_MODULES } from '../../../embedded/src/embedded.modules';
import { createServiceApp } from '@pss/host';
import { OpsRegistry } from '@pss/ops';

/**
 * The whole service with the bus at its worst, as Kafka may be: commands and events delivered twice, late (after
 * the gateway gave up waiting) and out of order, event handlers crashing once. A client that retries with its
 * Idempotency-Key until it gets an answer must see each create take effect exactly once, and never a 404 or 409
 * for its own write.
 */
const FAULTS: BusFaults = { duplicateRate: 0.5, maxDelayMs: 500, handlerFailureRate: 0.2, seed: 7 };
// Short enough that a command delivered late outlives its caller's wait, long enough to create a store.
const REQUEST_TIMEOUT_MS = '300';
const MAX_ATTEMPTS = 40;

describe('Creates over a faulty bus (embedded, faults on)', () => {
  let app: NestFastifyApplication;
  let dataDir: string;
  let token: string;

  const post = async (url: string, body: unknown, key: string) => {
    const response = await app.getHttpAdapter().getInstance().inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.json() };
  };

  /** What a careful client does: the same request with the same key until it is answered other than 503. */
  const postUntilAnswered = async (url: string, body: unknown, key: string) => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const answer = await post(url, body, key);
      statuses.push(answer.status);
      if (answer.status !== 503 && answer.status !== 409) return { ...answer, statuses };
      if (answer.status === 409 && answer.body.error.code !== 'idempotency_in_progress') return { ...answer, statuses };
    }
    throw new Error(`${url} not answered in ${MAX_ATTEMPTS} attempts: ${statuses.join(', ')}`);
  };

  const get = async (url: string) => {
    const response = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-faults-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '1000000000', BUS_REQUEST_TIMEOUT_MS: REQUEST_TIMEOUT_MS });
    app = await createServiceApp({ name: 'embedded', modules: EMBEDDED_MODULES, config, busFaults: FAULTS });
    const ops = app.get(OpsRegistry);
    const org = (await ops.run('org.create', { name: 'Acme Checkout', 'owner-email': 'owner@acme.example' })) as { id: string };
    const issued = (await ops.run('token.create', { org: org.id, name: 'faults', scopes: 'stores:read,stores:write,webhooks:manage,rules:write,policies:read,policies:write,orgs:manage' })) as { token: string };
    token = issued.token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates each store once, answering every retry with that store', async () => {
    const domains = Array.from({ length: 12 }, (_, n) => `faulty${n}-${Date.now().toString(36)}.com.br`);

    const answers = await Promise.all(domains.map(domain => postUntilAnswered('/api/v1/stores', { domain }, `create-${domain}`)));

    expect(answers.map(answer => answer.status)).toEqual(domains.map(() => 201));
    expect(answers.flatMap(answer => answer.statuses).filter(status => status === 404 || status === 409)).toEqual([]);
    expect(answers.map(answer => answer.body.domain)).toEqual(domains);
    const listed = (await get('/api/v1/stores?limit=100')).body.data as Array<{ id: string; domain: string }>;
    expect(listed.filter(store => domains.includes(store.domain)).map(store => store.id).sort()).toEqual(
      answers.map(answer => answer.body.id).sort(),
    );
  }, 120_000);

  it('creates each rule once, answering every retry with that rule', async () => {
    const store = await postUntilAnswered('/api/v1/stores', { domain: `rules-${Date.now().toString(36)}.com.br` }, 'rules-store');
    const values = Array.from({ length: 6 }, (_, n) => `skimmer${n}.example.net`);

    const answers = await Promise.all(
      values.map(value => postUntilAnswered('/api/v1/rules', { store_id: store.body.id, type: 'block', target: 'domain', value }, `rule-${value}`)),
    );

    expect(answers.map(answer => answer.status)).toEqual(values.map(() => 201));
    expect(answers.flatMap(answer => answer.statuses).filter(status => status === 404 || status === 409)).toEqual([]);
    expect(answers.map(answer => answer.body.value)).toEqual(values);
  }, 120_000);

  it('creates each policy once, answering every retry with that policy', async () => {
    const names = Array.from({ length: 6 }, (_, n) => `Faulty policy ${n}`);

    const answers = await Promise.all(names.map(name => postUntilAnswered('/api/v1/policies', { name, action: 'needs_review' }, `policy-${name}`)));

    expect(answers.map(answer => answer.status)).toEqual(names.map(() => 201));
    const listed = (await get('/api/v1/policies?limit=100')).body.data as Array<{ id: string; name: string }>;
    expect(listed.filter(policy => names.includes(policy.name)).map(policy => policy.id).sort()).toEqual(answers.map(answer => answer.body.id).sort());
  }, 120_000);

  it('creates each organization once, answering every retry with that organization', async () => {
    const names = Array.from({ length: 4 }, (_, n) => `Faulty Brasil ${n}`);

    const answers = await Promise.all(names.map(name => postUntilAnswered('/api/v1/organizations', { name, owner_email: 'owner@acme.example' }, `org-${name}`)));

    expect(answers.map(answer => answer.status)).toEqual(names.map(() => 201));
    const listed = (await get('/api/v1/organizations?limit=100')).body.data as Array<{ id: string; name: string }>;
    expect(listed.filter(org => names.includes(org.name)).map(org => org.id).sort()).toEqual(answers.map(answer => answer.body.id).sort());
  }, 120_000);

  it('creates each webhook once, answering every retry with that webhook and its secret', async () => {
    const urls = Array.from({ length: 5 }, (_, n) => `https://hooks${n}.example.com/pss`);

    const answers = await Promise.all(urls.map(url => postUntilAnswered('/api/v1/webhooks', { url }, `hook-${url}`)));

    expect(answers.map(answer => answer.status)).toEqual(urls.map(() => 201));
    expect(answers.flatMap(answer => answer.statuses).filter(status => status === 404 || status === 409)).toEqual([]);
    expect(answers.map(answer => answer.body.secret)).toEqual(urls.map(() => expect.stringMatching(/^whsec_[0-9a-f]{64}$/)));
    const listed = (await get('/api/v1/webhooks?limit=100')).body.data as Array<{ id: string; url: string }>;
    expect(listed.map(hook => hook.id).sort()).toEqual(answers.map(answer => answer.body.id).sort());
  }, 120_000);
});
