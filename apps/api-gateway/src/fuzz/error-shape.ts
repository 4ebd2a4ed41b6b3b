/** What the fuzz property reads of an answer. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** An error names fields and says what is wrong; one this long is echoing the input it was sent. */
const MAX_ERROR_BYTES = 64 * 1024;
const ERROR_KEYS = new Set(['code', 'message', 'details']);
const DETAIL_KEYS = new Set(['field', 'message']);

/**
 * Why an answer breaks the contract, or undefined: no 5xx ever, and every 4xx in the DESIGN.md section 4 shape
 * `{"error": {"code", "message", "details"?}}` with a snake_case code and nothing else beside it, short enough
 * not to be echoing the request. A HEAD answer has no body to check.
 */
export function contractBreach(method: string, answer: Answer): string | undefined {
  if (answer.statusCode >= 500) return `answered ${answer.statusCode}`;
  if (answer.statusCode < 400 || method === 'HEAD') return undefined;
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json')) return `a ${answer.statusCode} that is not JSON`;
  if (answer.body.length > MAX_ERROR_BYTES) return `a ${answer.statusCode} of ${answer.body.length} characters (echoing the request?)`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `a ${answer.statusCode} whose body is not JSON`;
  }
  const problem = errorShapeProblem(body);
  return problem && `a ${answer.statusCode} not in the error shape: ${problem}`;
}

function errorShapeProblem(body: unknown): string | undefined {
  if (!isObject(body) || Object.keys(body).join() !== 'error') return 'the body must hold exactly one key, error';
  const error = body.error;
  if (!isObject(error)) return 'error must be an object';
  const extra = Object.keys(error).filter((key) => !ERROR_KEYS.has(key));
  if (extra.length > 0) return `error holds unexpected keys: ${extra.join(', ')}`;
  if (typeof error.code !== 'string' || !SNAKE_CASE.test(error.code)) return 'error.code must be a snake_case string';
  if (typeof error.message !== 'string' || error.message.length === 0) return 'error.message must be a non-empty string';
  if (error.details === undefined) return undefined;
  if (!Array.isArray(error.details) || error.details.length === 0) return 'error.details, when present, must be a non-empty array';
  for (const detail of error.details) {
    if (!isObject(detail) || typeof detail.message !== 'string') return 'every detail must be an object with a message';
    if (detail.field !== undefined && typeof detail.field !== 'string') return 'a detail field must be a string';
    const unexpected = Object.keys(detail).filter((key) => !DETAIL_KEYS.has(key));
    if (unexpected.length > 0) return `a detail holds unexpected keys: ${unexpected.join(', ')}`;
  }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
