import { randomBytes } from 'node:crypto';

/** The public key the SDK authenticates with: `pk_live_` and 32 hexadecimal characters (the spec's shape). */
export const SDK_KEY_PATTERN = /^pk_live_[0-9a-f]{32}$/;

/** How long a rotated key keeps working, so pages cached with it keep reporting while they roll over. */
export const PREVIOUS_KEY_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const generateSdkKey = (): string => `pk_live_${randomBytes(16).toString('hex')}`;
