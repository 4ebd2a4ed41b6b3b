/** The SDK's version: in every batch it sends, and in the immutable URL it is served at (`/sdk/v1/sdk-<version>.js`). */
export const SDK_VERSION = '1.0.0';
