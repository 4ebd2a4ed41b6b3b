import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Clock } from '@pss/kernel';
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

interface KeyRow extends RecordedOutcome {
  expiresAt: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    token TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    -- Epoch milliseconds: the first instant the key is free again.
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
`;

/**
 * Idempotency keys of the embedded mode: a table in the event store's SQLite file, on its connection (WAL,
 * `synchronous = FULL`), so a stored response survives a restart like the events it answered for. A claim is
 * one `BEGIN IMMEDIATE` transaction: read and write under the write lock, also against other processes.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly purgeSchedule = new PurgeSchedule();
  private readonly select: Database.Statement<[string, string], KeyRow | undefined>;
  private readonly takeKey: Database.Statement<[string, string, string, string, number]>;
  private readonly respond: Database.Statement<[number, string, number, string, string, string]>;
  private readonly free: Database.Statement<[string, string, string]>;
  private readonly purge: Database.Statement<[number]>;
  private readonly claimKey: Database.Transaction<(request: IdempotentRequest, now: number) => ClaimResult>;

  /** `database` stays owned by the event store, which closes it. */
  constructor(
    database: Database.Database,
    private readonly clock: Clock,
  ) {
    database.exec(SCHEMA);
    this.select = database.prepare(
      'SELECT fingerprint, status, body, expires_at AS expiresAt FROM idempotency_keys WHERE scope = ? AND key = ?',
    );
    this.takeKey = database.prepare(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, token, status, body, expires_at) VALUES (?, ?, ?, ?, NULL, NULL, ?)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
         status = NULL, body = NULL, expires_at = excluded.expires_at`,
    );
    this.respond = database.prepare(
      `UPDATE idempotency_keys SET status = ?, body = ?, expires_at = ?
       WHERE scope = ? AND key = ? AND token = ? AND status IS NULL`,
    );
    this.free = database.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND token = ? AND status IS NULL');
    this.purge = database.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
    this.claimKey = database.transaction((request: IdempotentRequest, now: number): ClaimResult => {
      const live = this.select.get(request.scope, request.key);
      if (live && live.expiresAt > now) return answerFor(live, request.fingerprint);
      const token = randomUUID();
      this.takeKey.run(request.scope, request.key, request.fingerprint, token, now + IN_FLIGHT_TIMEOUT_MS);
      return { kind: 'run', claim: { scope: request.scope, key: request.key, token } };
    });
  }

  async claim(request: IdempotentRequest): Promise<ClaimResult> {
    const now = this.clock.now().getTime();
    if (this.purgeSchedule.due(now)) await this.purgeExpired();
    return this.claimKey.immediate(request, now);
  }

  async complete(claim: Claim, response: StoredResponse): Promise<void> {
    const expiresAt = this.clock.now().getTime() + REPLAY_WINDOW_MS;
    this.respond.run(response.status, response.body, expiresAt, claim.scope, claim.key, claim.token);
  }

  async release(claim: Claim): Promise<void> {
    this.free.run(claim.scope, claim.key, claim.token);
  }

  async purgeExpired(): Promise<number> {
    return this.purge.run(this.clock.now().getTime()).changes;
  }
}
