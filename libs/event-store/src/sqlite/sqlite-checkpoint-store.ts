import type Database from 'better-sqlite3';
import { CheckpointStore } from '../checkpoint-store.port';
import type { Write } from './group-commit';

/**
 * Checkpoints in a table of the event store's SQLite file, on the event store's connection (so with its WAL and
 * `synchronous = FULL` settings): a saved checkpoint survives a crash like an appended event does. Saves go
 * through the event store's group commit, so a checkpoint saved among appends costs no fsync of its own.
 * Get one with `SqliteEventStore.checkpoints()`.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly select: Database.Statement<[string], number | undefined>;
  private readonly upsert: Database.Statement<[string, number]>;

  constructor(
    database: Database.Database,
    /** Runs a write in the event store's next group commit; resolves once it is durable. */
    private readonly commit: <Result>(write: Write<Result>) => Promise<Result>,
  ) {
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
    await this.commit(() => this.upsert.run(name, position));
  }
}
