import type { SdkConfig } from './config';

/**
 * The per-key `sdk.js` carries its store's config, as Sentry's loader script does: the gateway declares
 * `__pssConfig` (EMBEDDED_CONFIG_NAME in version.ts) in a block around the bundle. The versioned copy, the one
 * shops pin with `integrity`, carries none: it asks `GET /sdk/v1/config` as it loads.
 */
declare const __pssConfig: SdkConfig | undefined;

/** The config this copy of the SDK was served with, when it was served for a key. */
export const embeddedConfig = (): SdkConfig | undefined => (typeof __pssConfig === 'object' && __pssConfig ? __pssConfig : undefined);
