import { EmbeddedHarness } from '../../../embedded/src/testing/embedded-harness';

describe('OpenAPI document (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let document: any;
  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    document = (await service.request('GET', '/api/v1/openapi.json')).body;
  });
  afterAll(() => service.close());

  const operations = () =>
    Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );

  it('is OpenAPI 3.1, served without a token', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
  });

  it('names the one scope of every operation but itself', () => {
    const secured = operations().filter(({ path }) => path !== '/openapi.json');
    expect(secured.length).toBeGreaterThan(15);
    for (const { path, method, op } of secured) expect([path, method, op['x-required-scope']]).toEqual([path, method, expect.stringMatching(/^[a-z]+:[a-z]+$/)]);
  });

  it('documents the spec operations with their scopes and success codes', () => {
    expect(document.paths['/stores'].post['x-required-scope']).toBe('stores:write');
    expect(Object.keys(document.paths['/stores'].post.responses)).toContain('201');
    expect(document.paths['/stores/{id}/rotate-key'].post.responses['200']).toBeDefined();
    expect(document.paths['/rules'].get['x-required-scope']).toBe('scripts:read');
    expect(document.paths['/organizations'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(document.paths['/scripts/{id}/block'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(document.paths['/stores'].get.parameters.map((p: { name: string }) => p.name)).not.toContain('Idempotency-Key');
  });
});
