import { createHash } from 'node:crypto';

/** The SRI hash (`sha384-…` unless asked otherwise) of a script's content, as the SDK reports it. */
export const sri = (content: string, algorithm: 'sha256' | 'sha384' | 'sha512' = 'sha384'): string =>
  `${algorithm}-${createHash(algorithm).update(content).digest('base64')}`;
