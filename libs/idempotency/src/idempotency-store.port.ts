/**
 * Idempotency keys (IETF draft "The Idempotency-Key HTTP Header Field", as DESIGN.md section 4 decides): the
 * first request with a key claims it, runs, and leaves its response for the retries to replay. Both adapters
 * pass the one conformance suite in `idempotency-store.conformance.ts`.
 */

/** How long a response is replayed after it was given (spec, Limits: "replay window 24 hours"). */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim holds without a response: a process that dies mid-request frees its keys after this. Well
 * above the longest a request runs (bus timeout 10 s plus read-your-writes 5 s), so a live request keeps its key.
 */
export const IN_FLIGHT_TIMEOUT_MS = 60 * 1000;

/** A request that carries an idempotency key. */
export interface IdempotentRequest {
  /** Whose key it is (the acting organization): keys of two scopes never meet. */
  scope: string;
  key: string;
  /** Digest of what the request asks for; the same key with another fingerprint is a misuse. */
  fingerprint: string;
}

/** The response replayed to retries: status and the JSON text of the body ('' for none). */
export interface StoredResponse {
  status: number;
  body: string;
}

/** The right to run the request, held by exactly one request at a time; names it when it completes. */
export interface Claim {
  scope: string;
  key: string;
  /** Tells this claim from a later one on the same key, once this one has expired. */
  token: string;
}

/** What a request with a key should do. */
export type ClaimResult =
  /** The key was free (never used, or expired): run the request, then complete or release the claim. */
  | { kind: 'run'; claim: Claim }
  /** The first request with this key and fingerprint has a response: send it again. */
  | { kind: 'replay'; response: StoredResponse }
  /** The first request with this key and fingerprint has no response yet. */
  | { kind: 'in_progress' }
  /** The key belongs to a request with another fingerprint. */
  | { kind: 'key_reused' };

export interface IdempotencyStore {
  /** Atomic: of any number of concurrent claims on a free key, exactly one is told to run. */
  claim(request: IdempotentRequest): Promise<ClaimResult>;
  /** Keeps the response for the replay window. No effect once the claim has expired and the key moved on. */
  complete(claim: Claim, response: StoredResponse): Promise<void>;
  /** Frees the key at once, so a retry runs the request again (after a failure worth retrying). */
  release(claim: Claim): Promise<void>;
  /** Deletes the records past their expiry; returns how many. Claims also do this, at most every few minutes. */
  purgeExpired(): Promise<number>;
}

export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
