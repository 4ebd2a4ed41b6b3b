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
