import { createHash } from 'node:crypto';

/**
 * The client of the new-scripts benchmark, run as a child process (`node -r ./tools/register.js
 * bench/new-scripts.client.ts '<json>'`) so that its requests do not share the service's event loop. One writer
 * per store posts SDK batches of new scripts back to back; after each 202 a checker reads the store's newest
 * scripts (`GET /api/v1/scripts?store_id=…&limit=100`, following the cursor) until every script of the batch is
 * listed. One listing per batch keeps the polling cheap next to the writes. Prints one JSON line.
 */

export interface NewScriptsLoad {
  baseUrl: string;
  token: string;
  stores: Array<{ id: string; sdkKey: string; domain: string }>;
  scriptsPerBatch: number;
  batchesPerStore: number;
  /** Distinguishes this run's scripts from a warm-up's on the same stores. */
  runId: string;
}

export interface NewScriptsResult {
  scripts: number;
  /** From the first POST to the last 202. */
  seconds: number;
  /** Per batch: time from its 202 to the listing that showed all its scripts (every script of a batch alike). */
  appearanceMs: number[];
  /** Per batch: the POST's own latency. */
  postMs: number[];
  listings: number;
  startedAt: number;
  endedAt: number;
}

const LISTING_PAGE = 100;
/**
 * A batch not listed yet is looked for again after 5 ms, then twice as long each time up to 200 ms: a service that
 * lags behind is not also flooded by its own measurement.
 */
const FIRST_RECHECK_MS = 5;
const LAST_RECHECK_MS = 200;

async function run(load: NewScriptsLoad): Promise<NewScriptsResult> {
  const appearanceMs: number[] = [];
  const postMs: number[] = [];
  const checks: Promise<void>[] = [];
  let listings = 0;
  const authorization = `Bearer ${load.token}`;

  /** Until the store's listing shows every one of `srcs`; the time from `acknowledged` to that listing. */
  const appearance = async (storeId: string, srcs: Set<string>, acknowledged: number): Promise<void> => {
    const missing = new Set(srcs);
    for (let round = 0, recheckMs = FIRST_RECHECK_MS; round < 1000; round += 1, recheckMs = Math.min(recheckMs * 2, LAST_RECHECK_MS)) {
      let cursor: string | null = null;
      for (let page = 0; page < 3 && missing.size; page += 1) {
        const query = `store_id=${storeId}&limit=${LISTING_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const answer = await fetch(`${load.baseUrl}/api/v1/scripts?${query}`, { headers: { authorization } });
        listings += 1;
        if (answer.status !== 200) throw new Error(`GET /scripts answered ${answer.status} ${await answer.text()}`);
        const listed = (await answer.json()) as { data: Array<{ src: string }>; next_cursor: string | null };
        for (const script of listed.data) missing.delete(script.src);
        cursor = listed.next_cursor;
        if (!cursor) break;
      }
      if (missing.size === 0) {
        appearanceMs.push(performance.now() - acknowledged);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, recheckMs));
    }
    throw new Error(`${missing.size} scripts of store ${storeId} never appeared in GET /scripts`);
  };

  const writer = async (store: NewScriptsLoad['stores'][number]): Promise<void> => {
    const url = `${load.baseUrl}/sdk/v1/events?key=${store.sdkKey}`;
    for (let batch = 0; batch < load.batchesPerStore; batch += 1) {
      const observations = Array.from({ length: load.scriptsPerBatch }, (_, n) => {
        const name = `${load.runId}-${batch}-${n}`;
        return { kind: 'script', src: `https://cdn${n % 7}.vendor.example.net/js/${name}.js`, hash: `sha384-${createHash('sha384').update(`${store.id} ${name}`).digest('base64')}`, hash_source: 'sdk', size_bytes: 2000 + n };
      });
      const body = JSON.stringify({ page_url: `https://${store.domain}/checkout`, session_id: `bench-${batch}`, sdk_version: '1.0.0', observations });
      const posted = performance.now();
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const acknowledged = performance.now();
      const reply = (await answer.json()) as { accepted?: number; retry_after_seconds?: number };
      if (answer.status !== 202 || reply.accepted !== load.scriptsPerBatch || reply.retry_after_seconds) {
        throw new Error(`SDK batch answered ${answer.status} ${JSON.stringify(reply).slice(0, 500)}: every new script must be accepted`);
      }
      postMs.push(acknowledged - posted);
      checks.push(appearance(store.id, new Set(observations.map((observation) => observation.src)), acknowledged));
    }
  };

  const startedAt = performance.now();
  await Promise.all(load.stores.map(writer));
  const endedAt = performance.now();
  await Promise.all(checks);
  return {
    scripts: load.stores.length * load.batchesPerStore * load.scriptsPerBatch,
    seconds: (endedAt - startedAt) / 1000,
    appearanceMs,
    postMs,
    listings,
    startedAt: performance.timeOrigin + startedAt,
    endedAt: performance.timeOrigin + endedAt,
  };
}

if (require.main === module) {
  run(JSON.parse(process.argv[2]) as NewScriptsLoad).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: Error) => {
      process.stderr.write(`${error.stack ?? error.message}\n`);
      process.exit(1);
    },
  );
}
