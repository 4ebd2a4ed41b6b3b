import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { ALERT_OCCURRED, ALERT_STATUS_CHANGED, ALERT_TOPICS, COMMAND_PATTERNS, INVENTORY_TOPICS, REPORT_TOPICS } from '@pss/contracts';
import { buildAsyncApiDocument } from './asyncapi-document';

const FILE = join(__dirname, '../../../../../docs/asyncapi.json');

describe('docs/asyncapi.json', () => {
  const document = buildAsyncApiDocument('1.0.0');
  const text = `${JSON.stringify(document, null, 2)}\n`;

  it('is the document built from the contracts (UPDATE_ASYNCAPI=1 writes it again)', () => {
    if (process.env.UPDATE_ASYNCAPI === '1') writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('is a valid AsyncAPI 3 document for @asyncapi/parser, without errors', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(text);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0).map(({ code, message, path }) => `${code}: ${message} at ${path.join('.')}`)).toEqual([]);
    expect(parsed?.channels().length).toBeGreaterThan(50);
  });

  it('has a channel for every topic the code publishes or handles, with a payload', () => {
    const addresses = Object.values(document.channels).map((channel) => (channel as { address: string }).address);
    const published = [...Object.values(INVENTORY_TOPICS), ...Object.values(ALERT_TOPICS), ALERT_STATUS_CHANGED, ALERT_OCCURRED, ...Object.values(REPORT_TOPICS)];
    const commands = COMMAND_PATTERNS.flatMap((pattern) => [pattern, `${pattern}.reply`]);
    expect(addresses.sort()).toEqual([...published, ...commands].sort());
    for (const message of Object.values(document.components.messages)) expect(message).toMatchObject({ payload: expect.any(Object) });
  });
});
