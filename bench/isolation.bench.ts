import { loadavg } from 'node:os';
import { HttpsReceiver, testCertificate } from '@pss/notifier/src/testing/https-receiver';
import { startAttack, type Attack } from './isolation-attacker';
import { startServiceProcess } from './isolation-service';
import { DeliveryClock, DELIVERY_WAIT_MS, measureVictim, type Probe, type VictimFigures } from './isolation-victim';
import { makeWorld, type Attacker } from './isolation-world';
import type { BenchRow } from './report';
import { log, QUICK, withTempDir } from './support';

/**
 * Benchmark 14 (issue 29): what one tenant, or anyone holding a store's public key, can do to another shop. The
 * victim's experience is measured quiet, then under each attack in turn, in one run (so the quiet figure and the
 * attacked ones share the shared machine's noise): its script.detected latency (an SDK batch with a new script,
 * from a shopper's address, to the webhook arriving at its local receiver) and the p99 of its reads
 * (GET /api/v1/stores, GET /api/v1/scripts, each with its own token). The service runs as `npm start` does, in a
 * child process, with TRUST_PROXY=loopback; each attacker runs in a child process of its own
 * (bench/isolation-attacker.ts). Issue 29's fourth attack, bought prevalence, is a correctness property with its
 * e2e test, not a latency: it is not here.
 */

const PHASE_SECONDS = QUICK ? 4 : 24;
/** An attack runs this long before the victim is measured, so it is measured in full swing. */
const SWING_MS = QUICK ? 500 : 1_500;
/** Between phases, for the last attack's in-flight work to drain. */
const SETTLE_MS = QUICK ? 500 : 3_000;
const AIM_DELIVERY_MS = 2_000;

const ATTACKS: Array<{ id: string; attack: (baseUrl: string, attacker: Attacker, victimSdkKey: string, maxSeconds: number) => Attack }> = [
  { id: '14a', attack: (baseUrl, a, _, maxSeconds) => ({ kind: 'silent-webhooks', baseUrl, token: a.token, sdkKey: a.sdkKey, maxSeconds }) },
  { id: '14b', attack: (baseUrl, a, _, maxSeconds) => ({ kind: 'report-loop', baseUrl, token: a.token, storeId: a.storeId, maxSeconds }) },
  { id: '14c', attack: (baseUrl, _, sdkKey, maxSeconds) => ({ kind: 'sdk-flood', baseUrl, sdkKey, maxSeconds }) },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};

const failures = (probe: Probe): string => {
  const refused = Object.entries(probe.failures).map(([status, n]) => `${n} × ${status}`);
  return refused.length ? `, failed: ${refused.join(', ')}` : '';
};

/** The worst delivery (Infinity when one never came), and a few words on them. */
function deliveries(figures: VictimFigures): { worst: number; words: string } {
  const arrived = figures.deliveries.flatMap((delivery) => (delivery.ms === null ? [] : [delivery.ms]));
  const lost = figures.deliveries.filter((delivery) => delivery.ms === null);
  const reasons = [...new Set(lost.map((delivery) => delivery.rejection ?? 'accepted, no webhook'))].join('; ');
  const median = arrived.length ? `median ${percentile(arrived, 50).toFixed(0)} ms` : 'none arrived';
  const missing = lost.length ? `; ${lost.length} never arrived within ${DELIVERY_WAIT_MS / 1000} s (${reasons})` : '';
  return { worst: lost.length ? Infinity : Math.max(...arrived), words: `worst of ${figures.deliveries.length} page views, ${median}${missing}` };
}

function rows(id: string, attack: string, quiet: VictimFigures, attacked: VictimFigures): BenchRow[] {
  const calm = deliveries(quiet);
  const hit = deliveries(attacked);
  const verdict = hit.worst <= AIM_DELIVERY_MS ? 'met' : '**missed**';
  const read = (name: string, probe: (figures: VictimFigures) => Probe): BenchRow => ({
    id,
    name: `victim's \`${name}\` p99 (${probe(attacked).latencies.length} answers${failures(probe(attacked))}), same attack; aim within 2× quiet`,
    unit: 'ms',
    measured: percentile(probe(attacked).latencies, 99),
    baseline: percentile(probe(quiet).latencies, 99),
    higherIsBetter: false,
    baselineLabel: `quiet, same run (${probe(quiet).latencies.length} answers${failures(probe(quiet))})`,
  });
  return [
    {
      id,
      name: `victim's script.detected, SDK batch to webhook at its receiver (${hit.words}), under ${attack}; aim ≤ ${AIM_DELIVERY_MS / 1000} s`,
      unit: 'ms',
      measured: hit.worst,
      baseline: null,
      higherIsBetter: false,
      baselineLabel: `quiet, same run: worst ${calm.worst.toFixed(0)} ms (${calm.words}); aim ${verdict}`,
    },
    read('GET /api/v1/stores', (figures) => figures.stores),
    read('GET /api/v1/scripts', (figures) => figures.scripts),
  ];
}

export async function isolationBench(): Promise<BenchRow[]> {
  return withTempDir('isolation', async (dir) => {
    const receiver = await HttpsReceiver.start();
    const service = await startServiceProcess(dir, testCertificate().cert);
    try {
      const { victim, attacker } = await makeWorld(service, receiver);
      const clock = new DeliveryClock(receiver);
      await measureVictim(victim, clock, 'warm-up', QUICK ? 1 : 3);
      log(`quiet for ${PHASE_SECONDS} s (load average ${loadavg()[0].toFixed(2)})...`);
      const quiet = await measureVictim(victim, clock, 'quiet', PHASE_SECONDS);
      const result: BenchRow[] = [];
      for (const { id, attack } of ATTACKS) {
        await sleep(SETTLE_MS);
        const spec = attack(service.baseUrl, attacker, victim.sdkKey, PHASE_SECONDS + DELIVERY_WAIT_MS / 1000 + 60);
        log(`${spec.kind} for ${PHASE_SECONDS} s (load average ${loadavg()[0].toFixed(2)})...`);
        const running = await startAttack(spec);
        const attacked = await sleep(SWING_MS)
          .then(() => measureVictim(victim, clock, spec.kind, PHASE_SECONDS))
          .catch(async (error: unknown) => {
            await running.stop();
            throw error;
          });
        const summary = await running.stop();
        log(summary);
        result.push(...rows(id, summary, quiet, attacked));
      }
      return result;
    } finally {
      await service.stop();
      await receiver.close();
    }
  });
}
