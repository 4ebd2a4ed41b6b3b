import { randomUUID } from 'node:crypto';
import type { Clock } from '@pss/kernel';
import { DuplicateKeyError, type Document, type ReadCollection, type ReadStore } from '@pss/read-store';
import { answerFor, type RecordedOutcome } from '../idempotency-record';
import {
  IN_FLIGHT_TIMEOUT_MS,
  REPLAY_WINDOW_MS,
  type Claim,
  type ClaimResult,
  type IdempotencyStore,
  type IdempotentRequest,
  type StoredResponse,
} from '../idempotency-store.port';
import { PurgeSchedule } from '../purge-schedule';

const COLLECTION = 'idempotency_keys';

interface KeyDocument extends Document, RecordedOutcome {
  token: string;
  /** Epoch milliseconds: the first instant the key is free again. */
  expires_at: number;
}

/** One document per scope and key; JSON keeps the pair apart whatever characters either holds. */
const documentId = (scope: string, key: string): string => JSON.stringify([scope, key]);

/**
 * Idempotency keys of the distributed mode, in the read store (MongoDB), shared by every gateway replica. A claim
 * is an insert under the key's `_id`, which the unique `_id` index lets exactly one replica win; an expired
 * record is taken over with an update conditioned on what was read, so two takers cannot both win either.
 */
export class ReadStoreIdempotencyStore implements IdempotencyStore {
  private readonly purgeSchedule = new PurgeSchedule();

  private constructor(
    private readonly keys: ReadCollection<KeyDocument>,
    private readonly clock: Clock,
  ) {}

  static async open(readStore: ReadStore, clock: Clock): Promise<ReadStoreIdempotencyStore> {
    await readStore.ensureIndexes(COLLECTION, [{ key: { expires_at: 1 } }]); // serves the purge
    return new ReadStoreIdempotencyStore(readStore.collection<KeyDocument>(COLLECTION), clock);
  }

  async claim(request: IdempotentRequest): Promise<ClaimResult> {
    const now = this.clock.now().getTime();
    if (this.purgeSchedule.due(now)) await this.purgeExpired();
    const _id = documentId(request.scope, request.key);
    const fresh: KeyDocument = {
      _id,
      fingerprint: request.fingerprint,
      token: randomUUID(),
      status: null,
      body: null,
      expires_at: now + IN_FLIGHT_TIMEOUT_MS,
    };
    const run: ClaimResult = { kind: 'run', claim: { scope: request.scope, key: request.key, token: fresh.token } };
    // Each turn either decides or sees that another claim changed the record in between; it then looks again.
    for (;;) {
      if (await this.inserted(fresh)) return run;
      const current = await this.keys.findOne({ _id });
      if (!current) continue; // released or purged since the insert failed
      if (current.expires_at > now) return answerFor(current, request.fingerprint);
      const { _id: _same, ...takeOver } = fresh;
      const taken = await this.keys.updateOne({ _id, token: current.token, expires_at: current.expires_at }, { $set: takeOver });
      if (taken.matched === 1) return run;
    }
  }

  async complete(claim: Claim, response: StoredResponse): Promise<void> {
    const expiresAt = this.clock.now().getTime() + REPLAY_WINDOW_MS;
    await this.keys.updateOne(
      { _id: documentId(claim.scope, claim.key), token: claim.token, status: null },
      { $set: { status: response.status, body: response.body, expires_at: expiresAt } },
    );
  }

  async release(claim: Claim): Promise<void> {
    await this.keys.deleteMany({ _id: documentId(claim.scope, claim.key), token: claim.token, status: null });
  }

  async purgeExpired(): Promise<number> {
    return this.keys.deleteMany({ expires_at: { $lte: this.clock.now().getTime() } });
  }

  private async inserted(doc: KeyDocument): Promise<boolean> {
    try {
      await this.keys.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }
}
