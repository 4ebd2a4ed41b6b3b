import { execFile, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import type { BenchRow } from './report';
import type { TrafficPlan, TrafficSummary } from './sdk-traffic';
import { collectGarbage, log, QUICK, withTempDir } from './support';
import { startEmbeddedService } from './targets';

/**
 * `npm run bench -- soak` (issue 12 item 3, issue 15 goal 6): the embedded service under SDK traffic from a child
 * process (so this process's memory is the service's alone) for SOAK_SECONDS (600 unless set; 60 in a full run):
 * shoppers posting page views of SCRIPTS_PER_PAGE known scripts over STORES stores, and forged SDKs flooding one
 * more store with never-seen scripts. RSS and the heap after a full GC are sampled all along, with the documents
 * the read models hold: a leak is a slope of the heap with no data behind it, a bounded cache a plateau. The row
 * "RSS after a million observations" is the goal 6 (under 1 GB).
 */

const STORES = QUICK ? 20 : 1_000;
const SCRIPTS_PER_PAGE = 20;
const MILLION = QUICK ? 20_000 : 1_000_000;
const RSS_AIM_MB = 1024;
const REGISTER = join(__dirname, '..', 'tools', 'register.js');
const TRAFFIC = join(__dirname, 'sdk-traffic.ts');

interface Sample {
  at: number;
  rss: number;
  heapTotal: number;
  heap: number;
  documents: number;
  collections: Map<string, number>;
}

const MB = 2 ** 20;

/** The documents of each read model: what the embedded service legitimately holds in memory. */
async function collections(readStore: ReadStore): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const name of await readStore.listCollections()) counts.set(name, await readStore.collection(name).count({}));
  return counts;
}

/** Which read models grew between two samples, and by how much. */
const growth = (from: Sample, to: Sample): string =>
  [...to.collections]
    .map(([name, count]) => [name, count - (from.collections.get(name) ?? 0)] as const)
    .filter(([, grown]) => grown !== 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, grown]) => `${name} ${grown > 0 ? '+' : ''}${grown}`)
    .join(', ');

function startTraffic(plan: TrafficPlan, onMilestone: (observations: number) => void): { child: ChildProcess; done: Promise<TrafficSummary> } {
  const child = execFile(process.execPath, ['-r', REGISTER, TRAFFIC, JSON.stringify(plan)], { maxBuffer: 1024 * 1024 });
  const done = new Promise<TrafficSummary>((resolve, reject) => {
    let summary: TrafficSummary | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { milestone?: number; summary?: TrafficSummary };
      if (message.milestone) onMilestone(message.milestone);
      if (message.summary) summary = message.summary;
    });
    child.on('exit', (code) => (summary ? resolve(summary) : reject(new Error(`SDK traffic exited with ${code} and no summary`))));
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return { child, done };
}

export async function soakBench(): Promise<BenchRow[]> {
  const seconds = Number(process.env.SOAK_SECONDS ?? (process.argv.includes('soak') ? 600 : QUICK ? 20 : 60));
  const sampleEvery = Math.max(5, Math.round(seconds / 20));
  return withTempDir('soak', async (dir) => {
    const service = await startEmbeddedService(dir, ['stores:write']);
    try {
      const create = async (domain: string) => {
        const answer = await fetch(`${service.baseUrl}/api/v1/stores`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
          body: JSON.stringify({ domain }),
        });
        if (answer.status !== 201) throw new Error(`store creation answered ${answer.status}`);
        return ((await answer.json()) as { sdk_key: string }).sdk_key;
      };
      log(`creating ${STORES} stores...`);
      const keys: string[] = [];
      for (let n = 0; n < STORES; n += 1) keys.push(await create(`shop-${n}.example.com`));
      const floodKey = await create('flooded.example.com');
      const readStore = service.app.get<ReadStore>(READ_STORE);

      const samples: Sample[] = [];
      const sample = async (started: number) => {
        collectGarbage();
        const memory = process.memoryUsage();
        const counts = await collections(readStore);
        const documents = [...counts.values()].reduce((sum, count) => sum + count, 0);
        samples.push({ at: (performance.now() - started) / 1000, rss: memory.rss / MB, heapTotal: memory.heapTotal / MB, heap: memory.heapUsed / MB, documents, collections: counts });
        const last = samples.at(-1)!;
        log(`soak ${last.at.toFixed(0)} s: RSS ${last.rss.toFixed(0)} MB, V8 heap ${last.heapTotal.toFixed(0)} MB of which ${last.heap.toFixed(0)} MB live after GC, ${documents} read-model documents`);
        return last;
      };
      const started = performance.now();
      let atMillion: { rss: number; seconds: number } | undefined;
      const plan: TrafficPlan = { baseUrl: service.baseUrl, keys, scriptsPerPage: SCRIPTS_PER_PAGE, shoppers: 8, forgers: 2, floodKey, seconds, milestones: [MILLION] };
      const traffic = startTraffic(plan, () => {
        collectGarbage();
        atMillion = { rss: process.memoryUsage().rss / MB, seconds: (performance.now() - started) / 1000 };
        log(`${MILLION.toLocaleString('en-US')} observations after ${atMillion.seconds.toFixed(0)} s: RSS ${atMillion.rss.toFixed(0)} MB`);
      });
      let finished = false;
      void traffic.done.finally(() => (finished = true)).catch(() => undefined);
      while (!finished) {
        await new Promise((resolve) => setTimeout(resolve, sampleEvery * 1000));
        if (!finished) await sample(started);
      }
      const summary = await traffic.done;
      if (samples.length < 2) throw new Error('the soak ended before two samples');
      // The first samples include warming up (JIT, caches filling): the slope is taken over the second half.
      const half = samples.slice(Math.floor(samples.length / 2));
      const slope = (key: 'rss' | 'heap' | 'documents') => ((half.at(-1)![key] - half[0][key]) / (half.at(-1)!.at - half[0].at)) * 60;
      const first = samples[0];
      const last = samples.at(-1)!;
      log(`read models grown over the second half: ${growth(half[0], last) || 'none'}`);
      const label = `${seconds} s of SDK traffic (${summary.batches.toLocaleString('en-US')} page views of ${SCRIPTS_PER_PAGE} known scripts over ${STORES} stores, ${summary.failures} not 202; forged flood ${summary.flood.accepted} × recorded / ${summary.flood.refused} × refused)`;
      const rows: BenchRow[] = [
        { id: '12b', name: `heap after a full GC, last sample, ${label}`, unit: 'MB', measured: last.heap, baseline: null, higherIsBetter: false, baselineLabel: `first sample ${first.heap.toFixed(0)} MB; slope over the second half ${slope('heap').toFixed(2)} MB/min, read-model documents ${first.documents} → ${last.documents} (${slope('documents').toFixed(0)}/min)` },
        { id: '12b', name: 'RSS, last sample', unit: 'MB', measured: last.rss, baseline: null, higherIsBetter: false, baselineLabel: `first sample ${first.rss.toFixed(0)} MB; slope over the second half ${slope('rss').toFixed(2)} MB/min` },
      ];
      if (atMillion) {
        rows.push({ id: '15-6', name: `RSS after ${MILLION.toLocaleString('en-US')} observations over ${STORES} stores (${atMillion.seconds.toFixed(0)} s); aim < ${RSS_AIM_MB} MB`, unit: 'MB', measured: atMillion.rss, baseline: null, higherIsBetter: false, baselineLabel: `max over the soak ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} MB` });
      } else {
        log(`the soak ended after ${summary.observations} observations, before ${MILLION}: no goal-6 row`);
      }
      return rows;
    } finally {
      await service.close();
    }
  });
}
