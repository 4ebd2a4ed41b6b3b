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
  payload_too_large: 413,
  uri_too_long: 414, // libs/host http-errors.ts
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431, // libs/host http-errors.ts
  internal_error: 500,
  service_unavailable: 503,
};

export const statusOf = (code: string): number => STATUS_BY_CODE[code] ?? 500;

export const errorBody = (code: string, message: string, details?: ErrorDetail[]): ErrorBody => ({
  error: { code, message, ...(details && details.length ? { details } : {}) },
});
