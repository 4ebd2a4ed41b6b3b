/**
 * A script's hashes by algorithm (`sha256`, `sha384`, `sha512`). The SDK hashes the bytes with SHA-384 where the
 * browser shows them and otherwise reports the page's SRI token, often SHA-256: the same content then comes under
 * two names, and a hash is only ever compared with one of its own algorithm.
 */
export type HashesByAlgorithm = Readonly<Record<string, string>>;

export const hashAlgorithm = (hash: string): string => hash.slice(0, hash.indexOf('-')).toLowerCase();

export const withHash = (hashes: HashesByAlgorithm, hash: string | null): HashesByAlgorithm =>
  hash === null ? hashes : { ...hashes, [hashAlgorithm(hash)]: hash };
