import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import type { paths } from './api-types';

const TYPES_FILE = join(__dirname, 'api-types.d.ts');

const generateClientTypes = (document: unknown) =>
  new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'generate-types.mjs')], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin?.end(JSON.stringify(document));
  });

/**
 * What an integrator does with the OpenAPI document: generate types with openapi-typescript, call with
 * openapi-fetch. The generated file is committed and type-checked with the repository (npm run typecheck), so
 * this test's calls compile only if the document describes the bodies they read; it fails when the file is
 * older than the document.
 */
/** The body of a success, which openapi-fetch types as absent on an error: a failing call fails the test. */
function body<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

describe('a client generated from the OpenAPI document (embedded, over a socket)', () => {
  let service: EmbeddedHarness;
  let baseUrl: string;
  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    await service.app.listen(0, '127.0.0.1');
    baseUrl = await service.app.getUrl();
  });
  afterAll(() => service.close());

  it('is generated from the document the service serves (UPDATE_OPENAPI_CLIENT=1 writes it again)', async () => {
    const generated = await generateClientTypes((await service.request('GET', '/api/v1/openapi.json')).body);
    if (process.env.UPDATE_OPENAPI_CLIENT === '1') writeFileSync(TYPES_FILE, generated);
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(generated);
  });

  it('creates, lists and reads stores with typed bodies, and reads a typed error', async () => {
    const { token } = await service.tenant(['stores:read', 'stores:write']);
    const api = createClient<paths>({ baseUrl: `${baseUrl}/api/v1`, headers: { Authorization: `Bearer ${token}` } });

    const created = await api.POST('/stores', { body: { domain: `client-${Date.now().toString(36)}.example.com`, name: 'Client store' } });
    expect(created.response.status).toBe(201);
    const store = body(created);
    expect(store.sdk_key).toMatch(/^pk_live_[0-9a-f]{32}$/);
    expect(Object.keys(store.snippets)).toEqual(['html', 'nextjs', 'nuxt', 'wordpress']);
    const mode: 'monitor' | 'block' | undefined = store.sdk_config?.mode;
    expect(mode).toBe('monitor');

    const list = await api.GET('/stores', { params: { query: { limit: 10 } } });
    const page = body(list);
    const ids: string[] = page.data.map((listed) => listed.id);
    expect(ids).toContain(store.id);
    expect(page.next_cursor).toBeNull();

    const read = await api.GET('/stores/{id}', { params: { path: { id: store.id } } });
    expect(body(read).domain).toBe(store.domain);

    const missing = await api.GET('/stores/{id}', { params: { path: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' } } });
    expect([missing.response.status, missing.error?.error.code]).toEqual([404, 'not_found']);
  });

  it('calls the SDK endpoints with the store key, from the root', async () => {
    const { token } = await service.tenant(['stores:write']);
    const store = await service.createStore(token);
    const sdk = createClient<paths>({ baseUrl });
    const receipt = await sdk.POST('/sdk/v1/events', {
      params: { query: { key: store.sdk_key } },
      body: { page_url: `https://${store.domain}/checkout`, session_id: 's-1', sdk_version: '1.4.0', observations: [] },
    });
    expect(receipt.response.status).toBe(202);
    const accepted: number = body(receipt).accepted;
    expect(accepted).toBe(0);
  });
});
