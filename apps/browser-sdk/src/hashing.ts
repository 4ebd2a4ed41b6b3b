/** Hashes with the browser's own crypto (no JS implementation shipped): SRI form for scripts, hex for recipients. */

const subtle = (): SubtleCrypto | undefined => (typeof crypto !== 'undefined' && crypto.subtle ? crypto.subtle : undefined);

let encoder: TextEncoder | undefined; // made at the first inline script: a page's first one is not free
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => (encoder || (encoder = new TextEncoder())).encode(text) as Uint8Array<ArrayBuffer>;

/** `sha384-<base64>`, as an `integrity` attribute and the service's inventory write it. */
export const sri384 = (bytes: BufferSource): Promise<string | undefined> => sriDigest('sha384', bytes);

/** `<algorithm>-<base64>` for `sha256`, `sha384` or `sha512`: an `integrity` token. */
export async function sriDigest(algorithm: string, bytes: BufferSource): Promise<string | undefined> {
  const s = subtle();
  if (!s) return undefined; // insecure context (http): no hash, the service still sees the script
  const digest = new Uint8Array(await s.digest(`SHA-${algorithm.slice(3)}`, bytes));
  let binary = '';
  for (let i = 0; i < digest.length; i += 1) binary += String.fromCharCode(digest[i]);
  return `${algorithm}-${btoa(binary)}`;
}

export async function sha256Hex(text: string): Promise<string | undefined> {
  const s = subtle();
  if (!s) return undefined;
  const digest = new Uint8Array(await s.digest('SHA-256', utf8(text)));
  let hex = '';
  for (let i = 0; i < digest.length; i += 1) hex += (digest[i] < 16 ? '0' : '') + digest[i].toString(16);
  return hex;
}
