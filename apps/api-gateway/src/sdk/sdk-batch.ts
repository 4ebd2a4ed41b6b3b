import { checkObservation, hasControlCharacters, isHttpUrl, MAX_CONNECTIONS_PER_BATCH, MAX_OBSERVATIONS_PER_BATCH, type Observation } from '@pss/contracts';
import { validationError, type ErrorDetail } from '@pss/kernel';

/** Why an observation was left out: its index in the batch and the reason, in the 202. */
export interface Rejection {
  index: number;
  reason: string;
}

/** The 202 lists the first reasons only: enough to fix a client, never a response bigger than its request. */
export const MAX_REJECTIONS_LISTED = 20;

export interface CheckedItems {
  accepted: Observation[];
  /** The client's index of each accepted observation. */
  indexes: number[];
  rejected: number;
  rejections: Rejection[];
}

export interface CheckedBatch extends CheckedItems {
  pageUrl: string;
  sessionId: string;
  sdkVersion: string;
}

/**
 * The batch envelope must be right (400 otherwise); its observations are checked one by one, and a bad one is
 * rejected with its reason without failing the others.
 */
export function checkBatch(parsed: unknown): CheckedBatch {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validationError([{ message: 'the body must be a JSON object' }]);
  }
  const batch = parsed as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  if (!isPageUrl(batch.page_url)) details.push({ field: 'page_url', message: 'page_url must be the http(s) URL of the page, without control characters' });
  if (!isText(batch.session_id, 128)) details.push({ field: 'session_id', message: 'session_id must be a string of 1 to 128 characters, without control characters' });
  if (!isText(batch.sdk_version, 32)) details.push({ field: 'sdk_version', message: 'sdk_version must be a string of 1 to 32 characters, without control characters' });
  if (!Array.isArray(batch.observations) || batch.observations.length > MAX_OBSERVATIONS_PER_BATCH) {
    details.push({ field: 'observations', message: `observations must be an array of at most ${MAX_OBSERVATIONS_PER_BATCH} items` });
  }
  if (details.length) throw validationError(details);
  return {
    pageUrl: pageOf(batch.page_url as string),
    sessionId: batch.session_id as string,
    sdkVersion: batch.sdk_version as string,
    ...checkItems(batch.observations as unknown[]),
  };
}

const TOO_MANY_CONNECTIONS = `a batch carries at most ${MAX_CONNECTIONS_PER_BATCH} connections`;

/**
 * Each item on its own; `indexOf` maps an item back to what the client sent (CSP reports expand to several).
 * Connections past MAX_CONNECTIONS_PER_BATCH are rejected: each new one may cost inventory a stream.
 */
export function checkItems(items: unknown[], indexOf: (position: number) => number = (position) => position): CheckedItems {
  const accepted: Observation[] = [];
  const indexes: number[] = [];
  const rejections: Rejection[] = [];
  let rejected = 0;
  let connections = 0;
  items.forEach((item, position) => {
    const checked = checkObservation(item);
    if (checked.ok && checked.value.kind === 'connection' && ++connections > MAX_CONNECTIONS_PER_BATCH) {
      rejected += 1;
      if (rejections.length < MAX_REJECTIONS_LISTED) rejections.push({ index: indexOf(position), reason: TOO_MANY_CONNECTIONS });
      return;
    }
    if (checked.ok) {
      accepted.push(checked.value);
      indexes.push(indexOf(position));
      return;
    }
    rejected += 1;
    if (rejections.length < MAX_REJECTIONS_LISTED) rejections.push({ index: indexOf(position), reason: checked.reason });
  });
  return { accepted, indexes, rejected, rejections };
}

/**
 * The 202 of a batch: its observations counted, the bad ones and the new scripts or signals the store's budgets
 * left out (`deferred`, by client index) rejected with their reasons, the first MAX_REJECTIONS_LISTED listed in
 * index order.
 */
export function answerOf(observations: number, checked: Pick<CheckedItems, 'rejected' | 'rejections'>, deferred: Rejection[]) {
  const rejections = [...checked.rejections, ...deferred].sort((a, b) => a.index - b.index).slice(0, MAX_REJECTIONS_LISTED);
  return { accepted: observations - deferred.length, rejected: checked.rejected + deferred.length, rejections };
}

/**
 * A page as the service keeps it: its URL without query and fragment. They may carry personal data (an e-mail, an
 * order token, whatever a form put there), which alerts, reports and webhooks would then spread; the SDK never
 * sends them, and a browser's CSP report or another client that does has them dropped here.
 */
export const pageOf = (url: string): string => url.replace(/[?#][\s\S]*$/, '');

/**
 * A page's URL as a browser serializes it has no control characters (they are percent-encoded); one that has
 * them is forged, and kept as sent (only its query is cut) it would reach alerts, reports and logs.
 */
export const isPageUrl = (value: unknown): value is string => isHttpUrl(value) && !hasControlCharacters(value);

/** Ids and versions are shown and logged as sent: no control characters, which could split or disguise a line. */
const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max && !hasControlCharacters(value);

/**
 * SDK bodies are parsed here, not by the HTTP layer's JSON parser: that one refuses a whole body for one
 * `__proto__` key, and a bad observation must never fail its batch. `JSON.parse` turns such a key into an own
 * property (it pollutes nothing); `checkObservation` then rejects the item that carries it.
 */
export function parseSdkJson(text: string): unknown {
  if (text.trim() === '') throw validationError([{ message: 'Malformed JSON body: the body is empty' }], 'Malformed JSON body');
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ message: 'Malformed JSON body' }], 'Malformed JSON body');
  }
}
