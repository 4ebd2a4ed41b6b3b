/**
 * The HTTP load generator of benchmark 3, run as a child process (`node -r ./tools/register.js
 * bench/load-generator.ts '<json>'`) so that it has its own event loop and core. autocannon keeps latencies in a
 * histogram with 1 ms resolution, which rounds a sub-millisecond p99 to 0; every response time (hrtime, in ms) is
 * therefore also kept here and the percentiles computed from those exactly. Prints one JSON line.
 */

export interface LoadRequest {
  url: string;
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  headers: Record<string, string>;
  /** GET when omitted. */
  method?: string;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  p50Ms: number;
  /** The dashboard's aim (issue 32) is on the p95. */
  p95Ms: number;
  p99Ms: number;
}

/** The part of autocannon's API used here (the package ships no type declarations). */
interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
}
interface AutocannonSummary {
  duration: number;
  requests: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string>; method?: string; body?: string },
  done: (error: Error | null, result: AutocannonSummary) => void,
) => AutocannonInstance;

const autocannon = require('autocannon') as Autocannon;

function load(request: LoadRequest, seconds: number, latencies?: number[]): Promise<AutocannonSummary> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: request.url, connections: request.connections, duration: seconds, headers: request.headers, method: request.method ?? 'GET', body: request.body },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx || result.errors || result.timeouts) {
          return reject(new Error(`failures on ${request.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`));
        }
        resolve(result);
      },
    );
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

const percentile = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as LoadRequest;
  await load(request, request.warmUpSeconds);
  const latencies: number[] = [];
  const result = await load(request, request.seconds, latencies);
  const sorted = Float64Array.from(latencies).sort();
  const answer: LoadResult = {
    requestsPerSecond: result.requests.total / result.duration,
    total: result.requests.total,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
