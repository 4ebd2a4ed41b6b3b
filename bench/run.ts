import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { availabilityBench } from './availability.bench';
import { dashboardBench } from './dashboard.bench';
import { eventStoreBench } from './event-store.bench';
import { httpBench } from './http.bench';
import { ingestionBench } from './ingestion.bench';
import { isolationBench } from './isolation.bench';
import { newScriptsBench } from './new-scripts.bench';
import { notifierBench } from './notifier.bench';
import { projectionReplayBench } from './projection-replay.bench';
import { AIM, markdownTable, ratio, type BenchRow } from './report';
import { sdkPageBench } from './sdk-page.bench';
import { startupBench } from './startup.bench';
import { soakBench } from './soak.bench';
import { reportsBench } from './reports.bench';
import { reportRenderingBench } from './report-rendering.bench';
import { log, QUICK } from './support';

/**
 * `npm run bench`: the benchmarks side by side, one after the other in this process (never two at once: the
 * machine has two cores and the HTTP benchmark needs both). Progress goes to stderr; stdout is a markdown report
 * to paste into docs/benchmarks.md. `npm run bench -- appends replay` runs a subset; BENCH_QUICK=1 is a smoke test.
 */

const BENCHMARKS: Record<string, () => Promise<BenchRow[]>> = {
  appends: eventStoreBench,
  replay: projectionReplayBench,
  startup: startupBench,
  http: httpBench,
  ingestion: ingestionBench,
  newscripts: newScriptsBench,
  notifier: notifierBench,
  sdk: sdkPageBench,
  reports: reportsBench,
  rendering: reportRenderingBench,
  availability: availabilityBench,
  soak: soakBench,
  isolation: isolationBench,
  dashboard: dashboardBench,
};

function machine(): string {
  const [cpu] = cpus();
  return [
    `${availableParallelism()} cores (${cpu?.model.trim() ?? 'unknown CPU'})`,
    `${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    `${type()} ${release()}`,
    `Node ${process.version}`,
    `temp dir ${tmpdir()}`,
  ].join(', ');
}

/** Which code was measured: the commit, and whether the working tree differed from it. */
function revision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: `${__dirname}/..`, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no').length > 0;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in BENCHMARKS));
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  const names = wanted.length ? wanted : Object.keys(BENCHMARKS);
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  for (const name of names) {
    log(`${name}...`);
    const benchStarted = Date.now();
    try {
      rows.push(...(await BENCHMARKS[name]()));
    } catch (error) {
      // One broken benchmark (say, the service does not boot) still leaves the others' figures.
      failures.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
      log(`${name} FAILED: ${(error as Error).stack ?? String(error)}`);
    }
    log(`${name} done in ${((Date.now() - benchStarted) / 1000).toFixed(1)} s`);
  }
  const compared = rows.filter((row) => ratio(row) !== null);
  const missed = compared.filter((row) => ratio(row)! < AIM);
  const lines = [
    `Run: ${new Date().toISOString()} — \`npm run bench${wanted.length ? ` -- ${wanted.join(' ')}` : ''}\`${QUICK ? ' (BENCH_QUICK=1: smoke test, not a measurement)' : ''}`,
    `Machine: ${machine()}`,
    `Code: ${revision()}`,
    // Other processes on a 2-core machine move every figure: this says how busy it was.
    `Load: 1-minute load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`,
    '',
    markdownTable(rows),
    '',
    rows.length === 0
      ? 'No figures.'
      : missed.length
        ? `Aim missed on ${missed.length} of ${compared.length} compared rows (ratio < ${AIM}).`
        : `Aim met on all ${compared.length} compared rows (ratio ≥ ${AIM}).`,
    ...failures.map((failure) => `FAILED ${failure}`),
    `Total time: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failures.length) process.exitCode = 1;
}

main().then(
  // Everything the benchmarks opened is closed; should a library leave a handle behind, do not hang on it.
  () => setTimeout(() => process.exit(), 2000).unref(),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
