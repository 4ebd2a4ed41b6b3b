import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LoggerService } from '@nestjs/common';
import Database from 'better-sqlite3';
import { API_TOKENS, hashToken, TOKEN_LITERAL, tokenPrefix, type ApiTokenDocument } from '@pss/contracts';
import { SqliteEventStore } from '@pss/event-store';
import { uuidv7 } from '@pss/kernel';
import { CHECKPOINT_COLLECTION, ProjectionRunner, type CheckpointDocument } from '@pss/projections';
import { MemoryReadStore } from '@pss/read-store';
import { TokenProjection } from '@pss/inventory/src/tokens/token.projection';
import type { BenchRow } from './report';
import { collectGarbage, log, QUICK, withTempDir } from './support';

/**
 * Benchmark 2: full replay rate of one projection. The inventory's real `TokenProjection` (one `applyOnce`
 * per event, into the in-memory read store as in embedded mode) rebuilt by `ProjectionRunner.rebuild`, which
 * applies the events to the documents they touch in memory and writes each document once per batch, against a
 * raw read of the same rows: better-sqlite3 iterating `SELECT ... ORDER BY position` and parsing each event's data.
 */

const TOKENS = QUICK ? 50 : 500;
const USES_PER_TOKEN = 99; // 500 tokens x (1 TokenIssued + 99 TokenUsed) = 50,000 events
/** Raw read and rebuild alternate this many times; the fastest of each is reported. */
const ROUNDS = QUICK ? 1 : 4;

const silent: LoggerService = { log: () => undefined, error: () => undefined, warn: () => undefined };

/**
 * Writes the token streams the way a busy organization produces them: every token issued, then their uses
 * interleaved across streams. Written with one raw transaction into the adapter's own file and schema (the
 * adapter creates it), so setting up 50k events takes a second rather than a minute of single appends.
 */
function seed(file: string): { events: number; lastUse: Map<string, string> } {
  const orgId = uuidv7();
  const tokenIds = Array.from({ length: TOKENS }, () => uuidv7());
  const lastUse = new Map<string, string>();
  const db = new Database(file);
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const metadata = JSON.stringify({ actor: 'admin-cli', orgId });
  let events = 0;
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const write = (stream: string, revision: number, type: string, data: unknown) => {
    clock += 1000;
    const at = new Date(clock).toISOString();
    insert.run(uuidv7(), stream, revision, type, JSON.stringify(data), metadata, at);
    events += 1;
    return at;
  };
  db.transaction(() => {
    for (const tokenId of tokenIds) {
      const token = `${TOKEN_LITERAL}${randomBytes(12).toString('hex')}_${randomBytes(16).toString('hex')}`;
      write(`token-${tokenId}`, 0, 'TokenIssued', {
        tokenId,
        orgId,
        name: `CI token ${tokenId.slice(-6)}`,
        prefix: tokenPrefix(token),
        hash: hashToken(token),
        scopes: ['stores:read', 'scripts:read', 'alerts:read'],
        issuedAt: new Date(clock).toISOString(),
        expiresAt: null,
      });
    }
    for (let use = 1; use <= USES_PER_TOKEN; use += 1) {
      for (const tokenId of tokenIds) {
        const usedAt = new Date(clock + 1000).toISOString();
        write(`token-${tokenId}`, use, 'TokenUsed', { tokenId, usedAt });
        lastUse.set(tokenId, usedAt);
      }
    }
  })();
  db.close();
  return { events, lastUse };
}

/** The baseline: every row in position order, data parsed; nothing else. */
function rawReplay(file: string): { events: number; seconds: number } {
  const db = new Database(file, { readonly: true });
  try {
    const select = db.prepare<[], { position: number; type: string; data: string }>(
      'SELECT position, id, stream, revision, type, data, metadata, created_at FROM events ORDER BY position',
    );
    const started = performance.now();
    let events = 0;
    let checksum = 0; // uses what was parsed, so none of it is optimized away
    for (const row of select.iterate()) {
      const data = JSON.parse(row.data) as { tokenId: string };
      checksum += data.tokenId.length;
      events += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    if (checksum === 0) throw new Error('raw replay read nothing');
    return { events, seconds };
  } finally {
    db.close();
  }
}

/**
 * `ProjectionRunner.rebuild` of the token projection, timed from the call to its return (blue/green: shadow
 * collections, pause, catch-up of the tail, swap, resume), alternating with the raw read round by round, so both
 * see the same neighbours on a shared machine. The live projection is started at the head first (its checkpoint
 * says so), so it does not replay the same events in the background during the measurement.
 */
async function alternatingReplays(file: string, expected: { events: number; lastUse: Map<string, string> }) {
  const eventStore = SqliteEventStore.open(file);
  const readStore = new MemoryReadStore();
  const runner = new ProjectionRunner(eventStore, readStore, silent);
  const projection = new TokenProjection();
  runner.register(projection);
  try {
    await readStore
      .collection<CheckpointDocument>(CHECKPOINT_COLLECTION)
      .upsert({ _id: projection.name, position: await eventStore.headPosition(), updated_at: new Date().toISOString() });
    await runner.start();
    await runner.catchUp();
    const raw: Array<{ events: number; seconds: number }> = [];
    const rebuilt: Array<{ events: number; seconds: number }> = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      collectGarbage();
      raw.push(rawReplay(file));
      collectGarbage();
      const started = performance.now();
      const result = await runner.rebuild(projection.name, () => undefined);
      const seconds = (performance.now() - started) / 1000;
      if (result.events !== expected.events) throw new Error(`rebuild replayed ${result.events} of ${expected.events} events`);
      await verify(readStore, expected.lastUse);
      rebuilt.push({ events: result.events, seconds });
      log(`round ${round}: raw read ${Math.round(rate(raw[raw.length - 1]))} events/s, projection rebuild ${Math.round(rate({ events: result.events, seconds }))} events/s`);
    }
    return { raw, rebuilt };
  } finally {
    await runner.stop();
    await eventStore.close();
    await readStore.close();
  }
}

/** A benchmark that computes the wrong read model measures nothing: every token must show its last use. */
async function verify(readStore: MemoryReadStore, lastUse: Map<string, string>): Promise<void> {
  const tokens = await readStore.collection<ApiTokenDocument>(API_TOKENS).find({});
  const wrong = tokens.filter((token) => token.last_used_at !== lastUse.get(token._id));
  if (tokens.length !== lastUse.size || wrong.length > 0) {
    throw new Error(`rebuilt read model is wrong: ${tokens.length} tokens, ${wrong.length} with a wrong last use`);
  }
}

const rate = (run: { events: number; seconds: number }): number => run.events / run.seconds;
const fastest = (runs: Array<{ events: number; seconds: number }>): number => Math.max(...runs.map(rate));

export async function projectionReplayBench(): Promise<BenchRow[]> {
  return withTempDir('replay', async (dir) => {
    const file = join(dir, 'events.sqlite');
    await SqliteEventStore.open(file).close(); // the adapter creates its schema and pragmas
    const expected = seed(file);
    log(`projection replay: seeded ${expected.events} token events`);
    const { raw, rebuilt } = await alternatingReplays(file, expected);
    return [
      {
        id: '2',
        name: `Full replay of \`TokenProjection\` (${expected.events.toLocaleString('en-US')} events, \`ProjectionRunner.rebuild\`, memory read store)`,
        unit: 'events/s',
        measured: fastest(rebuilt),
        baseline: fastest(raw),
        higherIsBetter: true,
        baselineLabel: 'better-sqlite3 `SELECT … ORDER BY position` + `JSON.parse(data)`',
      },
    ];
  });
}
