import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Benchmarks are bounded twice: by wall-clock time and by a maximum count, so a fast machine cannot run away. */
export interface Budget {
  /** Stop once this much time has passed (checked between operations). */
  seconds: number;
  /** ...or once this many operations have run, whichever comes first. */
  maxOps: number;
}

export interface Measured {
  /** Operations run (appends, requests, ...). */
  ops: number;
  /** Units of work done (events written, events replayed, ...); equals `ops` when one op is one unit. */
  units: number;
  seconds: number;
}

export const perSecond = (measured: Measured): number => measured.units / measured.seconds;

/** Runs `op` (which returns the units it did) until the budget is spent. */
export async function timeBoxed(budget: Budget, op: (i: number) => number | Promise<number>): Promise<Measured> {
  const deadline = budget.seconds * 1000;
  const started = performance.now();
  let ops = 0;
  let units = 0;
  while (ops < budget.maxOps) {
    units += await op(ops);
    ops += 1;
    if (performance.now() - started >= deadline) break;
  }
  return { ops, units, seconds: (performance.now() - started) / 1000 };
}

/** Synchronous twin of `timeBoxed`, so the raw baselines pay no promise per operation. */
export function timeBoxedSync(budget: Budget, op: (i: number) => number): Measured {
  const deadline = budget.seconds * 1000;
  const started = performance.now();
  let ops = 0;
  let units = 0;
  while (ops < budget.maxOps) {
    units += op(ops);
    ops += 1;
    if (performance.now() - started >= deadline) break;
  }
  return { ops, units, seconds: (performance.now() - started) / 1000 };
}

/** The run with the highest rate: the least disturbed by the neighbours of a shared 2-core machine. */
export const best = (runs: Measured[]): Measured => runs.reduce((a, b) => (perSecond(b) > perSecond(a) ? b : a));

/** A temporary directory that is removed again whatever happens in `use`. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `pss-bench-${prefix}-`));
  try {
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Progress goes to stderr so that stdout is only the report. */
export const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

/**
 * A full GC between measurements, so one benchmark's garbage is not collected on the next one's clock. The npm
 * script passes no node flags, so the flag is set at run time and `gc` is taken from a fresh context.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
export const collectGarbage = (): void => gc();

/** Quick mode (BENCH_QUICK=1) shrinks every budget: a smoke test of the harness, not a measurement. */
export const QUICK = process.env.BENCH_QUICK === '1';
