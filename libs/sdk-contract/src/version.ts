/** The SDK's version: in every batch it sends, and in the immutable URL it is served at (`/sdk/v1/sdk-<version>.js`). */
export const SDK_VERSION = '1.0.0';

/**
 * The name under which the keyed `sdk.js` carries its store's config: the gateway wraps the bundle in a block
 * that declares it (apps/api-gateway/src/sdk/keyed-sdk-scripts.ts); `embeddedConfig()` reads it.
 */
export const EMBEDDED_CONFIG_NAME = '__pssConfig';
