import { deterministicUuid } from '@pss/kernel';
import type { ScriptObservation } from '@pss/contracts';

/**
 * What makes two sightings the same script of a store: an external script is its URL without query or
 * fragment (a cache-busting `?v=` is the same script, and a changed content shows as a new hash); an inline
 * script is its content hash.
 */
export function scriptKey(observation: Pick<ScriptObservation, 'inline' | 'src' | 'hash'>): string {
  return observation.inline ? `inline:${observation.hash}` : `src:${scriptUrl(observation.src!)}`;
}

/** An external script's URL as its identity has it: without query or fragment (the query may be a visitor's). */
export function scriptUrl(src: string): string {
  const url = new URL(src);
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname}`;
}

export const scriptIdFor = (storeId: string, key: string): string => deterministicUuid('script', storeId, key);

export const scriptHost = (observation: Pick<ScriptObservation, 'inline' | 'src'>): string | null =>
  observation.inline ? null : new URL(observation.src!).hostname.toLowerCase();
