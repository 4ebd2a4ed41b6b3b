/**
 * Background work (projections catching up, integration events fanning out to deliveries, rebuilds) shares
 * the process's one event loop with the requests. Most of it never waits on real I/O (SQLite and the in-memory
 * read store answer synchronously behind their promises), so a chain of awaits would run to its end before a
 * single request is read. Such loops call `yieldToRequests()` once per item: when the current slice has run
 * for SLICE_MS, it waits one turn of the event loop (setImmediate, after pending I/O), so a request waits at
 * most about one slice however much work is queued.
 */
export const SLICE_MS = 10;

let sliceStartedAt = performance.now();

const nextTurn = (): Promise<void> =>
  new Promise((resolve) =>
    setImmediate(() => {
      sliceStartedAt = performance.now();
      resolve();
    }),
  );

/** Resolves at once while the slice lasts, after one turn of the event loop once it is spent. */
export function yieldToRequests(): Promise<void> | undefined {
  return performance.now() - sliceStartedAt < SLICE_MS ? undefined : nextTurn();
}
