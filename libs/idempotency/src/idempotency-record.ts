import type { ClaimResult, StoredResponse } from './idempotency-store.port';

/** What both adapters keep of a key while it is live; `status` and `body` stay null until the response. */
export interface RecordedOutcome {
  fingerprint: string;
  status: number | null;
  body: string | null;
}

/** The answer to a claim on a live key. */
export function answerFor(record: RecordedOutcome, fingerprint: string): ClaimResult {
  if (record.fingerprint !== fingerprint) return { kind: 'key_reused' };
  if (record.status === null) return { kind: 'in_progress' };
  const response: StoredResponse = { status: record.status, body: record.body ?? '' };
  return { kind: 'replay', response };
}
