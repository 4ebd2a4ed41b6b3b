import { checkObservation, isHttpUrl, MAX_OBSERVATIONS_PER_BATCH, type Observation } from '@pss/contracts';
import { validationError, type ErrorDetail } from '@pss/kernel';

export interface CheckedBatch {
  pageUrl: string;
  sessionId: string;
  sdkVersion: string;
  accepted: Observation[];
  rejected: number;
}

/**
 * The batch envelope must be right (400 otherwise); its observations are checked one by one, and a bad one is
 * counted as rejected without failing the others.
 */
export function checkBatch(body: unknown): CheckedBatch {
  const parsed = typeof body === 'string' ? parseJson(body) : body;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validationError([{ message: 'the body must be a JSON object' }]);
  }
  const batch = parsed as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  if (!isHttpUrl(batch.page_url)) details.push({ field: 'page_url', message: 'page_url must be the http(s) URL of the page' });
  if (!isText(batch.session_id, 128)) details.push({ field: 'session_id', message: 'session_id must be a string of 1 to 128 characters' });
  if (!isText(batch.sdk_version, 32)) details.push({ field: 'sdk_version', message: 'sdk_version must be a string of 1 to 32 characters' });
  if (!Array.isArray(batch.observations) || batch.observations.length > MAX_OBSERVATIONS_PER_BATCH) {
    details.push({ field: 'observations', message: `observations must be an array of at most ${MAX_OBSERVATIONS_PER_BATCH} items` });
  }
  if (details.length) throw validationError(details);
  const accepted: Observation[] = [];
  for (const item of batch.observations as unknown[]) {
    const checked = checkObservation(item);
    if (checked.ok) accepted.push(checked.value);
  }
  return {
    pageUrl: batch.page_url as string,
    sessionId: batch.session_id as string,
    sdkVersion: batch.sdk_version as string,
    accepted,
    rejected: (batch.observations as unknown[]).length - accepted.length,
  };
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ message: 'Malformed JSON body' }], 'Malformed JSON body');
  }
}
