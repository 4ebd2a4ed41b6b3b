import { HttpDomainError } from '../http/exceptions.filter';

/** The fixed realm of the API, named in every 401's WWW-Authenticate header. */
export const REALM = 'Payment Page Script Security API';

export const unauthorized = (message: 'Missing or malformed bearer token' | 'Invalid token' | 'Token expired') =>
  new HttpDomainError('unauthorized', message, { 'WWW-Authenticate': `Bearer realm="${REALM}"` });
