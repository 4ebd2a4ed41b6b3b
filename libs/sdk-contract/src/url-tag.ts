/**
 * A short, stable tag of a script URL (53 bits, base 36), computed alike by the gateway and the SDK. The keyed
 * `sdk.js` lists the tags of the scripts whose CORS re-fetch the service has only ever seen refused, never their
 * URLs: a URL seen on one visitor's page may carry that visitor's data in its query, and the script is public.
 * Not a cryptographic hash: a collision only spares a script its re-fetch, which its server could refuse anyway.
 */
export function urlTag(url: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < url.length; i += 1) {
    const code = url.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** One page view in this many re-fetches every script anyway: a vendor that turns CORS on is learned. */
const RETRY_REFUSED_ONE_IN = 20;

/**
 * The scripts the keyed `sdk.js` says the service has only ever seen refused by CORS (their URL tags): re-fetched
 * on every page view, each would cost the page a request, a console error and main-thread time, for nothing.
 */
export function refusedByCors(tags: string[] | undefined, random = Math.random()): (url: string) => boolean {
  if (!tags || tags.length === 0 || random * RETRY_REFUSED_ONE_IN < 1) return () => false;
  const refused = new Set(tags);
  return (url) => refused.has(urlTag(url));
}
