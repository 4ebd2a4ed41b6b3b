import type Database from 'better-sqlite3';
import { CheckpointStore } from '../checkpoint-store.port';

/**
 * Checkpoints in a table of the event store's SQLite file, on the event store's connection (so with its WAL and
 * `synchronous = FULL` settings): a saved checkpoint survives a crash like an appended event does.
 * Get one with `SqliteEventStore.checkpoints()`.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly select: Database.Statement<[string], number | undefined>;
  private readonly upsert: Database.Statement<[string, number]>;

  constructor(database: Database.Database) {
    database.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.select = database.prepare<[string], number | undefined>('SELECT position FROM checkpoints WHERE name = ?').pluck();
    this.upsert = database.prepare(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
  }

  async load(name: string): Promise<number | undefined> {
    return this.select.get(name);
  }

  async save(name: string, position: number): Promise<void> {
    if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`Invalid checkpoint position ${position}`);
    this.upsert.run(name, position);
  }
}
