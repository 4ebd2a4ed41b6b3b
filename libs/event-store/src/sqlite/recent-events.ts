import { matchesFilter, type EventFilter } from '../event-store.port';

/**
 * An events row as the store reads it, an array in `COLUMNS` order (`.raw()`): better-sqlite3 builds a row object
 * one property at a time, and pages of 50,000 events took 1.5 times as long to read (data parsed) as objects as
 * they did as arrays. The event literal in `toRecordedEvent` gets its shape at once.
 */
export type EventRow = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
  createdAt: string,
];

/**
 * The last rows this process committed, with no gap: they cover every position in (`before`, `end`]. Every
 * subscription rereads what was just appended (a score of them in one service), each with its own filter; from
 * here that is a scan of rows in memory instead of a query each (a fifth of the CPU while facts fan out). A
 * range another process wrote into is not covered, since this process's positions jump over it, and is read
 * from the file. Rows, not parsed events: each reader parses its own copy, as it would from the file.
 */
export class RecentEvents {
  private rows: EventRow[] = [];
  /** Index in `rows` of the oldest row held. */
  private first = 0;
  private before = 0;

  constructor(private readonly capacity: number) {}

  /** The newest position covered. */
  get end(): number {
    return this.before + this.rows.length - this.first;
  }

  /** Rows just committed, in position order. */
  add(rows: readonly EventRow[]): void {
    for (const row of rows) {
      if (row[0] !== this.end + 1) this.restartBefore(row[0]);
      this.rows.push(row);
    }
    const surplus = this.rows.length - this.first - this.capacity;
    if (surplus > 0) {
      this.first += surplus;
      this.before += surplus;
    }
    // Drops what fell out of the window now and then, not on every add.
    if (this.first >= this.capacity) {
      this.rows = this.rows.slice(this.first);
      this.first = 0;
    }
  }

  /** Rows in (after, upTo] that match `filter`, at most `limit` (negative: all); undefined when not all held. */
  read(after: number, upTo: number, filter: EventFilter | undefined, limit: number): EventRow[] | undefined {
    if (after < this.before || upTo > this.end) return undefined;
    const matching: EventRow[] = [];
    const last = this.first + (upTo - this.before);
    for (let index = this.first + (after - this.before); index < last && matching.length !== limit; index += 1) {
      const row = this.rows[index];
      if (matchesFilter({ stream: row[2], type: row[4] }, filter)) matching.push(row);
    }
    return matching;
  }

  private restartBefore(position: number): void {
    this.rows = [];
    this.first = 0;
    this.before = position - 1;
  }
}
