/** What one write of a group came to: its result, or the error that failed it alone. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A synchronous database write (better-sqlite3), run inside the group's transaction. */
export type Write<Result> = () => Result;

/**
 * Group commit: the writes submitted during one turn of the event loop are handed to `commit` together, once the
 * turn's I/O callbacks and promise chains have run (setImmediate), so many writes share one transaction and one
 * fsync. `commit` is synchronous and returns one outcome per write, in order; when it throws, nothing of the group
 * was committed and every write fails with that error. A write's promise settles only after `commit` has
 * returned, i.e. after the transaction holding it is durable.
 *
 * The window costs no latency: an idle process commits a lone write at the end of the turn that made it. Under
 * load it widens by itself, since writes requested while a commit holds the event loop are all read in the next
 * turn and committed together. `maxGroup` bounds one transaction, so one commit never holds the loop for long.
 */
export class GroupCommit {
  private queue: Array<{ write: Write<unknown>; resolve: (result: unknown) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly commit: (writes: Array<Write<unknown>>) => Outcome[],
    private readonly maxGroup: number,
  ) {}

  submit<Result>(write: Write<Result>): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ write, resolve: (result) => resolve(result as Result), reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.commitNextGroup());
      }
    });
  }

  /** Commits everything still waiting, now (before the database closes). */
  drain(): void {
    while (this.queue.length) this.commitGroup();
  }

  private commitNextGroup(): void {
    this.scheduled = false;
    this.commitGroup();
    // More than one group's worth: the rest in the next turn, after the I/O that waited for this commit.
    if (this.queue.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.commitNextGroup());
    }
  }

  private commitGroup(): void {
    const group = this.queue.splice(0, this.maxGroup);
    if (group.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.commit(group.map(({ write }) => write));
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    group.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
