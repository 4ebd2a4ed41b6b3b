// Lints an OpenAPI document (JSON on stdin) with Redocly's recommended ruleset and prints the problems as JSON.
// A separate process: @redocly/openapi-core is an ES module, which Jest's CommonJS runtime cannot load.
import { createConfig, lintFromString } from '@redocly/openapi-core';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const problems = await lintFromString({
  source: Buffer.concat(chunks).toString('utf8'),
  absoluteRef: 'openapi.json',
  config: await createConfig({ extends: ['recommended'] }),
});
process.stdout.write(JSON.stringify(problems.map(({ ruleId, severity, message, location }) => ({ ruleId, severity, message, pointer: location[0]?.pointer }))));
