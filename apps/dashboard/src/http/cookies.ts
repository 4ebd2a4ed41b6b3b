/** The Cookie header as name → value; the first of a repeated name wins (RFC 6265 §5.4 orders longer paths first). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!(name in cookies)) cookies[name] = pair.slice(at + 1).trim();
  }
  return cookies;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
}

/**
 * Every dashboard cookie is Secure, SameSite=Lax and for Path=/, so a `__Host-` name is valid: the browser then
 * refuses one set by a subdomain or over plain HTTP (localhost aside, which Chromium counts as secure).
 */
export function serializeCookie(name: string, value: string, { maxAgeSeconds, httpOnly = true }: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, 'Path=/', 'Secure', 'SameSite=Lax'];
  if (httpOnly) parts.push('HttpOnly');
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  return parts.join('; ');
}
