import { createHash } from 'node:crypto';
import type { AlertType } from '@pss/contracts';

/**
 * What makes two occurrences the same alert: its type, the store and the subject (a script, a header name, a
 * CSP directive and blocked URI, an iframe host, a payment method and key hash). Hashed, so it has one length
 * and one alphabet whatever the subject is.
 */
export const fingerprintOf = (type: AlertType, storeId: string, ...subject: string[]): string =>
  createHash('sha256').update([type, storeId, ...subject].join('\u0000')).digest('hex');
