/** The public key the SDK authenticates with: `pk_live_` and 32 hexadecimal characters (the spec's shape). */
export const SDK_KEY_PATTERN = /^pk_live_[0-9a-f]{32}$/;
