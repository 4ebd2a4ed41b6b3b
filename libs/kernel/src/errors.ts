/**
 * A failure the caller can act on. `code` is the stable snake_case identifier clients branch on; the message is
 * for people. The gateway maps codes to HTTP statuses; services never think in HTTP.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** When to try again (the HTTP `Retry-After`), for errors that pass once load or lag has: 429, 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const validationError = (details: ErrorDetail[], message = 'Request validation failed'): DomainError =>
  new DomainError('validation_error', message, details);

/** The shape in which errors cross process boundaries (bus replies, ops socket). */
export interface SerializedError {
  code: string;
  message: string;
  details?: ErrorDetail[];
  retry_after_seconds?: number;
}

export const serializeError = (error: unknown): SerializedError =>
  error instanceof DomainError
    ? {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...(error.retryAfterSeconds ? { retry_after_seconds: error.retryAfterSeconds } : {}),
      }
    : { code: 'internal_error', message: 'Internal error' };

export const isSerializedError = (value: unknown): value is SerializedError =>
  typeof value === 'object' && value !== null && typeof (value as SerializedError).code === 'string' &&
  typeof (value as SerializedError).message === 'string';

export const deserializeError = (error: SerializedError): DomainError =>
  new DomainError(error.code, error.message, error.details, error.retry_after_seconds);
