import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@pss/event-store';
import { ManualClock } from '@pss/testkit';
import { idempotencyStoreConformance } from '../idempotency-store.conformance';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';

/** A fresh event store file per test, removed afterwards. */
function temporaryEventStore(): { path: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'pss-idempotency-'));
  return { path: join(directory, 'events.sqlite'), remove: () => rmSync(directory, { recursive: true, force: true }) };
}

idempotencyStoreConformance('SqliteIdempotencyStore', async (clock) => {
  const file = temporaryEventStore();
  const eventStore = SqliteEventStore.open(file.path, { clock });
  return {
    store: new SqliteIdempotencyStore(eventStore.database, clock),
    cleanup: async () => {
      await eventStore.close();
      file.remove();
    },
  };
});

describe('SqliteIdempotencyStore durability', () => {
  it('replays a response stored before a restart', async () => {
    const clock = new ManualClock();
    const file = temporaryEventStore();
    const request = { scope: 'org-1', key: 'key-1', fingerprint: 'fingerprint-a' };
    const before = SqliteEventStore.open(file.path, { clock });
    const store = new SqliteIdempotencyStore(before.database, clock);
    const first = await store.claim(request);
    if (first.kind !== 'run') throw new Error(`expected to run, got ${first.kind}`);
    await store.complete(first.claim, { status: 201, body: '{"id":"s1"}' });
    await before.close();

    const after = SqliteEventStore.open(file.path, { clock });
    try {
      expect(await new SqliteIdempotencyStore(after.database, clock).claim(request)).toEqual({
        kind: 'replay',
        response: { status: 201, body: '{"id":"s1"}' },
      });
    } finally {
      await after.close();
      file.remove();
    }
  });
});
