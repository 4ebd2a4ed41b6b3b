import { contractBreach } from './error-shape';

describe('the fuzz property: what breaks the error contract', () => {
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const answer = (statusCode: number, body: unknown, headers: Record<string, string> = json) => ({
    statusCode,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

  it('accepts successes and 4xx in the documented shape', () => {
    expect(contractBreach('GET', answer(200, { data: [] }))).toBeUndefined();
    expect(contractBreach('GET', answer(404, { error: { code: 'not_found', message: 'Store not found' } }))).toBeUndefined();
    const validation = { error: { code: 'validation_error', message: 'Request validation failed', details: [{ field: 'name', message: 'too long' }, { message: 'bad' }] } };
    expect(contractBreach('POST', answer(400, validation))).toBeUndefined();
  });

  it('refuses any 5xx, even in the shape', () => {
    expect(contractBreach('GET', answer(500, { error: { code: 'internal_error', message: 'Internal error' } }))).toBe('answered 500');
  });

  it("refuses Fastify's own error shape, a body that is not JSON, and keys beside the documented ones", () => {
    const fastify = { error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: "'/x' is not a valid url component", statusCode: 400 };
    expect(contractBreach('GET', answer(400, fastify))).toMatch(/not in the error shape/);
    expect(contractBreach('GET', answer(401, 'Unauthorized', { 'content-type': 'text/plain' }))).toMatch(/not JSON/);
    expect(contractBreach('GET', answer(409, { error: { code: 'conflict', message: 'x', statusCode: 409 } }))).toMatch(/unexpected keys: statusCode/);
    expect(contractBreach('GET', answer(400, { error: { code: 'Bad Request', message: 'x' } }))).toMatch(/snake_case/);
    expect(contractBreach('GET', answer(400, { error: { code: 'validation_error', message: 'x', details: [] } }))).toMatch(/non-empty array/);
    expect(contractBreach('GET', answer(400, { error: { code: 'validation_error', message: `'${'a'.repeat(70_000)}' is bad` } }))).toMatch(/echoing/);
  });

  it('does not read the body of a HEAD answer, which has none', () => {
    expect(contractBreach('HEAD', answer(404, ''))).toBeUndefined();
  });
});
