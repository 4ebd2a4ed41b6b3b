/**
 * The value of one series in a Prometheus text exposition (`name{label="value"}` exactly as written), 0 when
 * the series is absent (a counter that has not moved yet).
 */
export function metricSample(exposition: string, series: string): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
