/**
 * Reads `Authorization: Bearer <token>`; undefined when the header is missing, has another scheme, or the
 * token is not of the documented format (all three get the same 401 message).
 */
export function bearerToken(header: string | string[] | undefined, tokenPattern: RegExp): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  if (!match || !tokenPattern.test(match[1])) return undefined;
  return match[1];
}
