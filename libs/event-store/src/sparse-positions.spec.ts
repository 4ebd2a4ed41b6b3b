import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SparseEventStore } from '@pss/testkit';
import { eventStoreConformance } from './event-store.conformance';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

// EventStoreDB's positions without its server: the port's promises hold when positions are far apart and only
// handed-out ones are accepted back.
eventStoreConformance('An event store with sparse, strictly checked positions', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'pss-sparse-'));
  const open = () => new SparseEventStore(SqliteEventStore.open(join(directory, 'events.sqlite'), { pollIntervalMs: 10, pageSize: 2, scanWindow: 3 }));
  const store = open();
  return {
    store,
    openSecond: async () => open(),
    cleanup: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
