import { sriDigest } from './hashing';

const SRI_TOKEN = /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/;
/** As the contract's MAX_REFUSED_INTEGRITY_TOKENS (not imported: nothing of the server side enters the bundle). */
const MAX_SENT = 4;

/**
 * The tokens of an `integrity` attribute a browser checks the bytes against: those of the strongest algorithm
 * named (SRI's "strongest metadata"; the names sort by strength), options (`?…`) cut. None when no token is
 * valid: the browser then checks nothing and runs the script.
 */
export function checkedTokens(integrity: string): string[] {
  const valid = integrity.split(/\s+/).map((token) => token.split('?')[0]).filter((token) => SRI_TOKEN.test(token));
  let strongest = '';
  for (const token of valid) if (token.slice(0, 6) > strongest) strongest = token.slice(0, 6);
  return valid.filter((token) => token.slice(0, 6) === strongest);
}

/**
 * The checked tokens, as the observation carries them, when none is the digest of `bytes`: the browser refused
 * to run the script. `sha384` is the SDK's own hash of the same bytes, spared a second digest when the page
 * pins SHA-384 too.
 */
export async function refusedIntegrity(bytes: BufferSource, sha384: string, checked: string[]): Promise<string | undefined> {
  if (checked.length === 0) return undefined;
  const algorithm = checked[0].slice(0, 6);
  const digest = algorithm === 'sha384' ? sha384 : await sriDigest(algorithm, bytes);
  return digest && checked.indexOf(digest) < 0 ? checked.slice(0, MAX_SENT).join(' ') : undefined;
}
