/** The aim stated by the product issue: every figure at least half of its raw baseline. */
export const AIM = 0.5;

export interface BenchRow {
  /** Which benchmark, e.g. `1a`. */
  id: string;
  name: string;
  unit: string;
  /** Through the project's code. */
  measured: number;
  /** The raw baseline doing the same work without it; null for a figure that has none (a latency to record). */
  baseline: number | null;
  /** false for latencies: lower is better, and the ratio is inverted so that higher is better on every row. */
  higherIsBetter: boolean;
  /** What the baseline is, in a few words. */
  baselineLabel: string;
}

/** Measured relative to the baseline, oriented so that 1.0 is "as good as raw" and higher is better. */
export const ratio = (row: BenchRow): number | null =>
  row.baseline === null ? null : row.higherIsBetter ? row.measured / row.baseline : row.baseline / row.measured;

const formatValue = (value: number, unit: string): string => {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'ms') return value.toFixed(2);
  return Math.round(value).toLocaleString('en-US');
};

/** A markdown table that pastes as is into docs/benchmarks.md. */
export function markdownTable(rows: BenchRow[]): string {
  const lines = [
    '| # | Benchmark | Unit | Measured | Raw baseline | Baseline is | Ratio | Aim (≥ 0.5) |',
    '|---|-----------|------|---------:|-------------:|-------------|------:|:-----------:|',
  ];
  for (const row of rows) {
    const r = ratio(row);
    const baseline = row.baseline === null ? '—' : formatValue(row.baseline, row.unit);
    const verdict = r === null ? 'n/a' : r >= AIM ? 'met' : '**missed**';
    lines.push(
      `| ${row.id} | ${row.name} | ${row.unit} | ${formatValue(row.measured, row.unit)} | ${baseline} | ${row.baselineLabel} | ${r === null ? '—' : r.toFixed(2)} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
