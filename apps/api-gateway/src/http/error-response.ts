import type { ErrorDetail } from '@pss/kernel';

/** DESIGN.md section 4: `{"error": {"code", "message", "details"?}}`; codes map to statuses here only. */
export interface ErrorBody {
  error: { code: string; message: string; details?: ErrorDetail[] };
}

const STATUS_BY_CODE: Record<string, number> = {
  validation_error: 400,
  unknown_command: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  plan_limit: 403,
  nesting_limit: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408, // written by libs/host http-errors.ts, before any route
  conflict: 409,
  idempotency_in_progress: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414, // libs/host http-errors.ts
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  domain_not_verified: 422,
  rate_limited: 429,
  headers_too_large: 431, // libs/host http-errors.ts
  internal_error: 500,
  service_unavailable: 503,
};

export const statusOf = (code: string): number => STATUS_BY_CODE[code] ?? 500;

export const errorBody = (code: string, message: string, details?: ErrorDetail[]): ErrorBody => ({
  error: { code, message: cut(message, MAX_MESSAGE), ...(details && details.length ? { details: details.slice(0, MAX_DETAILS).map(shown) } : {}) },
});

/**
 * Field names come from the client (an unknown field is named back): a name 70,000 characters long would be
 * sent back twice, so names and messages are cut. Real field paths (`recipients.49.label`) are far shorter.
 */
const MAX_FIELD = 100;
const MAX_MESSAGE = 500;
const MAX_DETAILS = 100;

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}…`);

const shown = ({ field, message, ...rest }: ErrorDetail): ErrorDetail => ({
  ...rest,
  ...(field === undefined ? {} : { field: cut(field, MAX_FIELD) }),
  message: cut(message, MAX_MESSAGE),
});
