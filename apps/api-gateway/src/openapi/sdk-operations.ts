import type { JsonSchema } from './json-schema';
import type { Parameter } from './query-parameters';

/** The SDK endpoints: public, outside /api/v1, authenticated (where they are) by the store's SDK key. */
export const SDK_PREFIX = 'sdk/v1';

/** The SDK paths are written whole, from the host's root. */
export const SDK_SERVERS = [{ url: '/' }];

export const SDK_KEY_PARAMETER: Parameter = {
  name: 'key',
  in: 'query',
  required: true,
  description: 'The public SDK key of the store.',
  schema: { type: 'string', pattern: '^pk_live_[0-9a-f]{32}$' },
};

/** What the install snippets pass to `sdk.js`: with it, the script carries the store's channel and config. */
export const SDK_SCRIPT_KEY_PARAMETER: Parameter = {
  ...SDK_KEY_PARAMETER,
  required: false,
  description:
    "The public SDK key of the store, as the install snippets pass it: the script is then the release of the store's channel with its config inside (cached 5 minutes). Without it, or with a key the service refuses, the stable release alone, which asks `/sdk/v1/config`.",
};

/** The bodies the SDK routes read themselves (no DTO): a batch of observations, or a browser's CSP reports. */
const CSP_REPORTS: JsonSchema = {
  description: 'A report-uri body (`{"csp-report": {…}}`) or a Reporting API list of 1 to 100 reports.',
  anyOf: [{ type: 'object', required: ['csp-report'], properties: { 'csp-report': { type: 'object' } } }, { type: 'array', minItems: 1, maxItems: 100, items: { type: 'object' } }],
};

export const SDK_BODIES: Record<string, Record<string, { schema: JsonSchema }>> = {
  postEvents: { 'application/json': { schema: { $ref: '#/components/schemas/SdkBatch' } } },
  postCspReports: {
    'application/csp-report': { schema: CSP_REPORTS },
    'application/reports+json': { schema: CSP_REPORTS },
    'application/json': { schema: CSP_REPORTS },
  },
};
