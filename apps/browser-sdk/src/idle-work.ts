import { safe } from './safe';

/**
 * The SDK's work after the page has loaded runs in one go until this is spent: with the piece that passes it (a
 * `fetch()` call is a few milliseconds at 4x), still far from a long task (50 ms), and few idle callbacks.
 */
const SLICE_MS = 10;

const queue: Array<() => void> = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 50);
}

/** Pieces of work in order, until the slice or the browser's idle period is spent; the rest waits for the next. */
const run = safe((deadline?: IdleDeadline) => {
  scheduled = false;
  const until = performance.now() + SLICE_MS;
  for (let work = queue.shift(); work; work = queue.shift()) {
    try {
      work();
    } catch {
      // a piece that throws is forgotten; the next ones still run
    }
    if (performance.now() >= until || (deadline && deadline.timeRemaining() < 1)) break;
  }
  if (queue.length) schedule();
});

/**
 * In an idle moment of the page, in slices: the SDK's observation work (a script to hash, a resource entry, the
 * page checks) never competes with the page's own, and no two pieces add up to a long task. Each piece is
 * wrapped: one that throws is forgotten.
 */
export function whenIdle(work: () => void): void {
  queue.push(work);
  schedule();
}

/** Once the page has loaded and the browser is idle: the SDK's own work never competes with the page's start. */
export function whenIdleAfterLoad(work: () => void): void {
  if (document.readyState === 'complete') whenIdle(work);
  else addEventListener('load', safe(() => whenIdle(work)));
}
