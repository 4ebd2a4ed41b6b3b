import { BlockedAddressError } from './address-guard';
import { printable } from '@pss/kernel';
import { networkError } from './attempt-errors';

const failure = (message: string, fields: Record<string, string> = {}) => Object.assign(new Error(message), fields);

describe('attempt errors', () => {
  it.each([
    ['a timeout, whatever the error', failure('socket hang up', { code: 'ECONNRESET' }), true, 'timeout'],
    ['a refused address', new BlockedAddressError('intranet.example', '10.0.0.5', 'private'), false, 'blocked_address'],
    ['a name that does not resolve', failure('getaddrinfo ENOTFOUND hooks.example', { code: 'ENOTFOUND', syscall: 'getaddrinfo' }), false, 'dns_error'],
    ['a resolver that gave up', failure('getaddrinfo EAI_AGAIN hooks.example', { code: 'EAI_AGAIN', syscall: 'getaddrinfo' }), false, 'dns_error'],
    ['an OpenSSL protocol error', failure('C0B7E1F4A27F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:355:', { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), false, 'tls_error'],
    ['an unverified certificate', failure('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), false, 'tls_error'],
    ['a certificate for another name', failure("Hostname/IP does not match certificate's altnames", { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), false, 'tls_error'],
    ['an expired certificate', failure('certificate has expired', { code: 'CERT_HAS_EXPIRED' }), false, 'tls_error'],
    ['a refused connection', failure('connect ECONNREFUSED 10.1.2.3:8443', { code: 'ECONNREFUSED' }), false, 'connection_refused'],
    ['a reset', failure('read ECONNRESET', { code: 'ECONNRESET' }), false, 'connection_refused'],
    ['an unreachable host', failure('connect EHOSTUNREACH 10.1.2.3:22', { code: 'EHOSTUNREACH' }), false, 'connection_refused'],
    ['an answer cut short', failure('the connection closed before the answer ended'), false, 'connection_refused'],
  ])('names %s with a fixed word', (_case, error, timedOut, word) => {
    expect(networkError(error, timedOut)).toBe(word);
  });

  it('keeps printable text only: whitespace runs as one space, no control or format character, no lone surrogate', () => {
    expect(printable('a\t\r\n b\u0000\u007f\u0085c\u202a\u202e\u2067\u200e\u200f\u061c\ufeffd\ud800e')).toBe('a bc de');
    expect(printable('Serviço indisponível ✓ 😀')).toBe('Serviço indisponível ✓ 😀');
  });
});
