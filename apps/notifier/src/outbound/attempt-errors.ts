import { ATTEMPT_ERRORS } from '@pss/contracts';
import { printable } from '@pss/kernel';
import { BlockedAddressError } from './address-guard';


/** What `error` quotes of a refusing receiver's body. */
export const QUOTED_BODY_CHARS = 200;

/** Name resolution failures, whether from getaddrinfo, c-ares or the client's own lookup. */
const DNS_CODES = /^(ENOTFOUND|ENODATA|ESERVFAIL|EAI_\w+)$/;

/**
 * OpenSSL's and Node's TLS errors: protocol failures (`ERR_SSL_…`, EPROTO) and certificate verification, whose
 * codes are OpenSSL's X509 verify names (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, HOSTNAME_MISMATCH…).
 */
const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|EPROTO$|UNABLE_TO_|CERT_|CRL_|ERROR_IN_C|DEPTH_ZERO_|SELF_SIGNED_|INVALID_CA$|INVALID_PURPOSE$|PATH_LENGTH_|HOSTNAME_MISMATCH$)/;

/**
 * The word for an attempt that failed without an answer. Whatever is not a timeout, a refused address, a name
 * that did not resolve or TLS is the connection failing on the receiver's side (refused, reset, unreachable,
 * closed before the answer ended): `connection_refused`.
 */
export function networkError(error: Error & { code?: string; syscall?: string }, timedOut: boolean): string {
  if (timedOut) return ATTEMPT_ERRORS.timeout;
  if (error instanceof BlockedAddressError) return ATTEMPT_ERRORS.blocked;
  const code = error.code ?? '';
  if (DNS_CODES.test(code) || error.syscall === 'getaddrinfo') return ATTEMPT_ERRORS.dns;
  if (TLS_CODES.test(code)) return ATTEMPT_ERRORS.tls;
  return ATTEMPT_ERRORS.refused;
}

/** `http_<status>: <start of the body>` (spec, POST /webhooks/{id}/test), the body as printable text. */
export function httpError(status: number, body: Buffer): string {
  const start = Array.from(printable(body.toString('utf8')).trim()).slice(0, QUOTED_BODY_CHARS).join('');
  return `http_${status}: ${start}`.trimEnd();
}
