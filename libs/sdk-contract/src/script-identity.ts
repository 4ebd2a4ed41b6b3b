import { scriptUrl } from '@pss/contracts/sdk/page-rules';

/**
 * What makes two sightings the same script of a store, for inventory (a script's id derives from it) and the
 * gateway's edge (which remembers inventory's verdicts by it): an external script is its URL without query or
 * fragment (a cache-busting `?v=` is the same script, and a changed content shows as a new hash); an inline
 * script is its content hash. The URL part is the page rules' `scriptUrl`, which stays in their file: the
 * install loader is built from that file, and its bytes (the hash in shops' CSPs) change with the file's text.
 */
export function scriptKey(script: { inline: boolean; src?: string; hash?: string }): string {
  return script.inline ? `inline:${script.hash}` : `src:${scriptUrl(script.src!)}`;
}
