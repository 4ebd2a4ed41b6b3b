/**
 * Whether a request's `If-None-Match` names `etag` (RFC 9110 §13.1.2: `*`, or a list of tags compared weakly, so
 * `W/"x"` matches `"x"`), and a 304 is the answer. Proxies and browsers send lists and weak tags.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}
