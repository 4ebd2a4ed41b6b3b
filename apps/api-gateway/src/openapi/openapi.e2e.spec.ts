import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRIPT_STATUSES } from '@pss/contracts';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { UNMAPPED_VALIDATORS } from './dto-schemas';
import { componentValidator } from './testing/component-validator';

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
      Object.entries(ops)
        .filter(([method]) => method !== 'servers')
        .map(([method, op]) => ({ path, method, op })),
    );

  it('is OpenAPI 3.1, served without a token', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
  });

  it('names the one scope of every operation but itself', () => {
    const secured = operations().filter(({ path }) => path !== '/openapi.json' && !path.startsWith('/sdk/'));
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

  /** The component a `$ref` names (`#/components/schemas/X`), or undefined. */
  const resolve = (schema: { $ref?: string }) => document.components.schemas[schema.$ref?.replace('#/components/schemas/', '') ?? ''];
  const bodySchemaOf = (path: string, method: string) => {
    const body = document.paths[path][method].requestBody;
    expect(body).toMatchObject({ required: true, content: { 'application/json': { schema: { $ref: expect.any(String) } } } });
    return resolve(body.content['application/json'].schema);
  };
  const queryParameter = (path: string, name: string) =>
    document.paths[path].get.parameters.find((parameter: { name: string; in: string }) => parameter.in === 'query' && parameter.name === name);

  it('describes the body of POST /stores from its DTO', () => {
    const store = bodySchemaOf('/stores', 'post');
    expect(store.required).toEqual(['domain']);
    expect(store.additionalProperties).toBe(false);
    expect(store.properties.country).toEqual({ type: 'string', pattern: expect.any(String) });
    expect(store.properties.calibration_seconds).toEqual({ type: 'integer', minimum: 10, maximum: 120 });
    expect(store.properties.recipients).toMatchObject({ type: 'array', maxItems: 50, items: { $ref: expect.any(String) } });
    expect(resolve(store.properties.recipients.items).required).toEqual(['method', 'key']);
  });

  it('describes the query string of GET /scripts from its DTO, one parameter per field', () => {
    expect(queryParameter('/scripts', 'status')).toEqual({ name: 'status', in: 'query', required: false, schema: { enum: [...SCRIPT_STATUSES] } });
    expect(queryParameter('/scripts', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    // org_id is in the DTO and written by hand: one parameter, with the hand-written description.
    const orgIds = document.paths['/scripts'].get.parameters.filter((parameter: { name: string }) => parameter.name === 'org_id');
    expect(orgIds).toEqual([expect.objectContaining({ description: expect.stringContaining('Partners only') })]);
  });

  it('offers no org_id where the route refuses it (GET and POST /organizations), in the query or the body', () => {
    const names = (method: string) => document.paths['/organizations'][method].parameters.map((p: { name: string }) => p.name);
    expect(names('get')).not.toContain('org_id');
    expect(names('post')).not.toContain('org_id');
    expect(bodySchemaOf('/organizations', 'post').properties).not.toHaveProperty('org_id');
    expect(document.paths['/webhooks'].get.parameters.map((p: { name: string }) => p.name)).toContain('org_id');
    expect(bodySchemaOf('/webhooks', 'post').properties).toHaveProperty('org_id');
  });

  it('describes nested DTOs as components refusing unknown fields', () => {
    const policy = bodySchemaOf('/policies', 'post');
    expect(resolve(policy.properties.match)).toMatchObject({ type: 'object', additionalProperties: false });
    expect(resolve(policy.properties.match).properties.domain.items.pattern).toBeDefined();
  });

  it('leaves operations without a body DTO without a request body', () => {
    expect(document.paths['/stores'].get.requestBody).toBeUndefined();
    expect(document.paths['/stores/{id}/rotate-key'].post.requestBody).toBeUndefined();
  });

  it('is well-formed: every $ref resolves, every schema is valid JSON Schema 2020-12, every validator described', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref);
    expect(refs.length).toBeGreaterThan(20);
    const target = (ref: string) => ref.split('/').slice(1).reduce((node, key) => node?.[key], document);
    for (const ref of refs) expect([ref, target(ref)]).toEqual([ref, expect.any(Object)]);
    expect(JSON.stringify(document)).not.toContain(UNMAPPED_VALIDATORS);

    const validator = componentValidator(document.components.schemas);
    for (const name of Object.keys(document.components.schemas)) expect(() => validator.component(name)).not.toThrow();
    for (const { path, method, op } of operations()) {
      const keys = op.parameters.map((parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`);
      expect([path, method, keys]).toEqual([path, method, [...new Set(keys)]]);
      for (const parameter of op.parameters) expect(() => validator.compile(parameter.schema)).not.toThrow();
    }
  });

  it('accepts the bodies the validation pipe accepts, and refuses those it refuses', async () => {
    const { token } = await service.tenant(['stores:write'], { plan: 'enterprise', 'billing-mode': 'processor' });
    const createStore = componentValidator(document.components.schemas).component('CreateStoreBody');
    let stores = 0;
    const good = () => ({ domain: `openapi${++stores}.example.com`, country: 'br', calibration_seconds: 30, recipients: [{ method: 'PIX', key: 'k' }] });
    const bodies = [
      good(),
      { ...good(), timezone: 'America/Sao_Paulo', emergency_contact: null, payment_pages: [{ url_pattern: '/checkout/*', payment_methods: ['pix'] }] },
      {},
      { ...good(), country: 'BRA' },
      { ...good(), calibration_seconds: 5 },
      { ...good(), calibration_seconds: 30.5 },
      { ...good(), recipients: [{ method: 'pix' }] },
      { ...good(), recipients: [{ method: 'pix', key: 'k', extra: 1 }] },
      { ...good(), name: null },
      { ...good(), extra: 1 },
    ];
    for (const body of bodies) {
      const answer = await service.request('POST', '/api/v1/stores', { token, body });
      expect([body, answer.status]).toEqual([body, createStore(body) ? 201 : 400]);
    }
  });

  it('describes report data as docs/report-data.schema.json does, at the levels it shows', () => {
    const full = JSON.parse(readFileSync(join(__dirname, '../../../../docs/report-data.schema.json'), 'utf8'));
    const shown = document.components.schemas.ReportData;
    expect(shown.required).toEqual(full.required);
    for (const part of ['meta', 'summary_643', 'summary_1161']) {
      expect(full.properties[part].required).toEqual(expect.arrayContaining(shown.properties[part].required));
    }
  });

  it('gives every JSON success an example its schema accepts', () => {
    const validator = componentValidator(document.components.schemas);
    const examples = operations().flatMap(({ path, method, op }) =>
      Object.entries(op.responses as Record<string, { content?: Record<string, { schema: object; example?: unknown }> }>).flatMap(([status, response]) => {
        const json = status < '400' ? response.content?.['application/json'] : undefined;
        return json ? [{ where: `${method} ${path} ${status}`, json }] : [];
      }),
    );
    expect(examples.length).toBeGreaterThan(40);
    for (const { where, json } of examples) {
      const validate = validator.compile(json.schema);
      expect([where, json.example !== undefined && validate(json.example), validate.errors]).toEqual([where, true, null]);
    }
  });
});
