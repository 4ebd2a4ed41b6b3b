import { createHash } from 'node:crypto';

/** The SRI hash (`sha384-…`) of a script's content, as the SDK reports it. */
export const sri = (content: string): string => `sha384-${createHash('sha384').update(content).digest('base64')}`;
