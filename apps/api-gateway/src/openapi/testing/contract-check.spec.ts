import { ContractCheck } from './contract-check';

describe('ContractCheck', () => {
  const check = new ContractCheck({
    servers: [{ url: '/api/v1' }],
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
      },
      '/sdk/v1/sdk.js': { servers: [{ url: '/' }], get: { responses: { '200': { content: { 'application/javascript': { schema: { type: 'string' } } } } } } },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'object' } } },
      },
    },
  });
  const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body, text: JSON.stringify(body) });
  const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

  it('passes an answer the document describes', () => {
    expect(check.problem('GET', `/api/v1/things/${id}?x=1`, json(200, { id, extra: true }))).toBeUndefined();
    expect(check.problem('GET', '/sdk/v1/sdk.js', { status: 200, headers: { 'content-type': 'application/javascript' }, body: undefined, text: 'x' })).toBeUndefined();
  });

  it('flags a body not matching the schema, an undeclared status, an undeclared media type', () => {
    expect(check.problem('GET', `/api/v1/things/${id}`, json(200, { id: 'not-a-uuid' }))).toMatch(/does not describe/);
    expect(check.problem('GET', `/api/v1/things/${id}`, json(409, { error: {} }))).toMatch(/does not declare/);
    expect(check.problem('GET', `/api/v1/things/${id}`, { status: 200, headers: { 'content-type': 'text/html' }, body: undefined, text: '<p>' })).toMatch(/text\/html/);
  });

  it('wants the error shape on unknown routes under the documented prefixes, and ignores the others', () => {
    expect(check.problem('DELETE', `/api/v1/things/${id}`, json(405, { error: {} }))).toBeUndefined();
    expect(check.problem('GET', '/api/v1/nothing', json(404, { message: 'Not Found' }))).toMatch(/not shaped as Error/);
    expect(check.problem('GET', '/api/v1/nothing', json(200, {}))).toMatch(/no operation/);
    expect(check.problem('GET', '/metrics', { status: 200, headers: {}, body: undefined, text: 'x 1' })).toBeUndefined();
  });
});
