import { execFile } from 'node:child_process';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/** The served document through the two validators integrators use: Redocly's recommended rules and swagger-parser. */
describe('OpenAPI document: validators', () => {
  let service: EmbeddedHarness;
  let document: Record<string, unknown>;
  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    document = (await service.request('GET', '/api/v1/openapi.json')).body;
  });
  afterAll(() => service.close());

  // These take no input and no credentials: no 4xx to declare, which the rule (a warning) would have.
  const CANNOT_FAIL = ['/openapi.json get', '/sdk/v1/config options', '/sdk/v1/events options', '/sdk/v1/csp options', '/sdk/v1/sdk.js get', '/sdk/v1/versions get'];

  it('passes Redocly lint with the recommended ruleset: no error, no warning but no 4xx where none can come', async () => {
    const output = await new Promise<string>((resolve, reject) => {
      const child = execFile(process.execPath, [join(__dirname, 'testing/redocly-lint.mjs')], (error, stdout) => (error ? reject(error) : resolve(stdout)));
      child.stdin?.end(JSON.stringify(document));
    });
    const problems: { ruleId: string; message: string; pointer: string }[] = JSON.parse(output);
    const operationOf = (pointer: string) => pointer.replace(/^#\/paths\/([^/]+)\/(\w+)\/responses$/, (_all, path: string, verb: string) => `${path.replaceAll('~1', '/')} ${verb}`);
    const unexpected = problems.filter(({ ruleId, pointer }) => !(ruleId === 'operation-4xx-response' && CANNOT_FAIL.includes(operationOf(pointer))));
    expect(unexpected.map(({ ruleId, message, pointer }) => `${ruleId}: ${message} at ${pointer}`)).toEqual([]);
  });

  it('is valid OpenAPI 3.1 for swagger-parser, every reference resolved', async () => {
    const validated = await SwaggerParser.validate(structuredClone(document) as never);
    expect(Object.keys(validated.paths ?? {}).length).toBeGreaterThan(25);
  });
});
