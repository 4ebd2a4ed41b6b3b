import { randomBytes } from 'node:crypto';

/** How long a rotated key keeps working, so pages cached with it keep reporting while they roll over. */
export const PREVIOUS_KEY_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const generateSdkKey = (): string => `pk_live_${randomBytes(16).toString('hex')}`;
