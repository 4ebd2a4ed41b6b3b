import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type ServiceConfig } from '@pss/config';
import type { StoreEnvironment } from '@pss/contracts';
import type { Clock } from '@pss/kernel';
import { OpsRegistry, type OpsArgs } from '@pss/ops';
import { createServiceApp, type ServiceAppOptions } from '@pss/host';
import { ContractCheck } from '@pss/api-gateway/src/openapi/testing/contract-check';
import { EMBEDDED_MODULES } from '../embedded.modules';

export interface HttpCall {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client's address, as the service sees it (127.0.0.1 unless given). */
  from?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
}

let storesCreated = 0;
/** Each store's domain by SDK key, so a test's SDK batch comes from the store's own pages (issue 29), also after a restart. */
const storeDomains = new Map<string, string>();

/** Under Jest every answer is checked against the served OpenAPI document: every e2e test is a contract test. */
const CHECK_CONTRACT = process.env.JEST_WORKER_ID !== undefined;

/**
 * The whole service in embedded mode on a fresh data directory, driven through HTTP (Fastify's inject: the
 * full request pipeline, no socket) and the same ops commands the admin CLI uses.
 */
export class EmbeddedHarness {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: ServiceConfig,
    private readonly ownsDataDir: boolean,
    private readonly storeEnvironment: StoreEnvironment,
  ) {}

  /** null: this harness serves no OpenAPI document (a test's own module set without the gateway). */
  private contract?: ContractCheck | null;

  static async start(
    options: {
      clock?: Clock;
      dataDir?: string;
      env?: NodeJS.ProcessEnv;
      modules?: ServiceAppOptions['modules'];
      /** What createStore makes: staging stores take page views from local hosts (a browser test's 127.0.0.1). */
      storeEnvironment?: StoreEnvironment;
      /** The in-process bus with Kafka's faults (every command delivered twice, say). */
      busFaults?: ServiceAppOptions['busFaults'];
      /** Engines shared with other harnesses, as replicas share them (shared-engines.ts); the data directory's own otherwise. */
      engines?: ServiceAppOptions['engines'];
    } = {},
  ): Promise<EmbeddedHarness> {
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'pss-test-'));
    // Tests drive many requests per token (and reports per organization): the limits have their own tests.
    const limits = { RATE_LIMIT_PER_MINUTE: '1000000000', REPORT_GENERATIONS_CONCURRENT: '1000', REPORT_GENERATIONS_PER_MINUTE: '1000000' };
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', ...limits, ...options.env });
    const app = await createServiceApp({ name: 'embedded', modules: options.modules ?? EMBEDDED_MODULES, config, clock: options.clock, busFaults: options.busFaults, engines: options.engines });
    return new EmbeddedHarness(app, config, !options.dataDir, options.storeEnvironment ?? 'production');
  }

  async request(method: string, url: string, call: HttpCall = {}): Promise<HttpAnswer> {
    const answer = await this.send(method, url, call);
    if (CHECK_CONTRACT && this.contract !== null) {
      if (this.contract === undefined) {
        const served = await this.send('GET', '/api/v1/openapi.json');
        this.contract = served.status === 200 ? new ContractCheck(served.body) : null;
      }
      const problem = this.contract?.problem(method, url, answer);
      if (problem) throw new Error(`Contract check (the served OpenAPI document): ${problem}`);
    }
    return answer;
  }

  private async send(method: string, url: string, call: HttpCall = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...call.headers };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    const payload = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await this.app.getHttpAdapter().getInstance().inject({ method: method as 'GET', url, headers, payload, remoteAddress: call.from });
    let body: unknown;
    try {
      body = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body, text: response.body };
  }

  ops(command: string, args: OpsArgs = {}): Promise<any> {
    return this.app.get(OpsRegistry).run(command, args);
  }

  async createOrganization(args: OpsArgs = {}): Promise<{ id: string; [key: string]: unknown }> {
    return this.ops('org.create', { name: 'Acme Checkout', 'owner-email': 'owner@acme.example', ...args });
  }

  /** An organization and a token with the given scopes, ready to call the API. */
  async tenant(scopes: string[], orgArgs: OpsArgs = {}): Promise<{ orgId: string; token: string; prefix: string }> {
    const org = await this.createOrganization(orgArgs);
    const issued = await this.ops('token.create', { org: org.id, name: 'test', scopes: scopes.join(',') });
    return { orgId: org.id, token: issued.token, prefix: issued.prefix };
  }

  /** A store with a domain no other test uses (the answer's `domain` builds first-party script URLs). */
  async createStore(token: string, body: Record<string, unknown> = {}): Promise<any> {
    const domain = `loja${++storesCreated}-${Date.now().toString(36)}.com.br`;
    const store = (await this.request('POST', '/api/v1/stores', { token, body: { domain, ...(this.storeEnvironment === 'staging' ? { environment: 'staging' } : {}), ...body } })).body;
    if (store?.sdk_key) storeDomains.set(store.sdk_key, store.domain);
    return store;
  }

  /** What the SDK on a checkout page (of the key's store, made by createStore) posts; `batch` overrides the envelope's fields. */
  reportSdk(sdkKey: string, observations: unknown[], batch: Record<string, unknown> = {}, from?: string): Promise<HttpAnswer> {
    const host = `www.${storeDomains.get(sdkKey) ?? 'loja.com.br'}`;
    return this.request('POST', `/sdk/v1/events?key=${sdkKey}`, {
      body: { page_url: `https://${host}/checkout?step=pay`, session_id: 'shopper-1', sdk_version: '1.4.0', observations, ...batch },
      from,
    });
  }

  async close(): Promise<void> {
    await this.app.close();
    if (this.ownsDataDir) rmSync(this.config.dataDir, { recursive: true, force: true });
  }
}
