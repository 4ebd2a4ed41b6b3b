/** What one request of a group came to: its result, or the error that failed it alone. */
export type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

/**
 * Group commit: the requests made during one turn of the event loop are handed to `commit` together, once the
 * turn's I/O callbacks and promise chains have run (setImmediate), so many appends share one transaction and one
 * fsync. `commit` is synchronous (better-sqlite3) and returns one outcome per request, in order; when it throws,
 * nothing of the group was committed and every request fails with that error. A request's promise settles only
 * after `commit` has returned, i.e. after the transaction holding it is durable.
 *
 * The window costs no latency: an idle process commits a lone request at the end of the turn that made it. Under
 * load it widens by itself, since requests arriving while a commit holds the event loop are all read in the next
 * turn and committed together. `maxGroup` bounds one transaction, so one commit never holds the loop for long.
 */
export class GroupCommit<Request, Result> {
  private queue: Array<{ request: Request; resolve: (result: Result) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly commit: (requests: Request[]) => Array<Outcome<Result>>,
    private readonly maxGroup: number,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
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
    let outcomes: Array<Outcome<Result>>;
    try {
      outcomes = this.commit(group.map(({ request }) => request));
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
