import { sri } from '@pss/testkit';
import type { HttpsReceiver } from '@pss/notifier/src/testing/https-receiver';
import { call } from './isolation-service';
import { QUICK } from './support';

/** One authenticated read per endpoint this often: with a token per endpoint, well inside a token's 20 a second. */
const PROBE_INTERVAL_MS = 75;
/** A shopper's page view with a never-seen script this often during a phase. */
const DELIVERY_EVERY_MS = QUICK ? 1_500 : 4_000;
/** How long a script.detected is waited for before it counts as never delivered. */
export const DELIVERY_WAIT_MS = QUICK ? 5_000 : 10_000;

export interface Victim {
  baseUrl: string;
  storesToken: string;
  scriptsToken: string;
  sdkKey: string;
  domain: string;
}

export interface Probe {
  latencies: number[];
  /** Answers other than 200, by status (or `network error`). */
  failures: Record<string, number>;
}

export interface Delivery {
  /** From sending the SDK batch to the webhook's arrival; null when it did not arrive within DELIVERY_WAIT_MS. */
  ms: number | null;
  /** Why the 202 left the new script out, when it did. */
  rejection: string | null;
}

export interface VictimFigures {
  stores: Probe;
  scripts: Probe;
  deliveries: Delivery[];
}

/** When each script.detected reached the victim's receiver, by the script's `src`. */
export class DeliveryClock {
  private readonly arrivals = new Map<string, number>();
  private readonly waiting = new Map<string, (at: number) => void>();

  constructor(receiver: HttpsReceiver) {
    receiver.answerWith((request) => {
      if (request.json?.type === 'script.detected') this.arrived(String(request.json.data?.src));
      return { status: 200 };
    });
  }

  /** The arrival time of `src`'s script.detected (performance.now()), or null after `timeoutMs`. */
  arrival(src: string, timeoutMs: number): Promise<number | null> {
    const known = this.arrivals.get(src);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(src);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(src, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  private arrived(src: string): void {
    const at = performance.now();
    this.arrivals.set(src, at);
    this.waiting.get(src)?.(at);
    this.waiting.delete(src);
  }
}

/** A GET every PROBE_INTERVAL_MS until `done()`, each timed from send to the whole answer. */
async function probe(url: string, token: string, done: () => boolean): Promise<Probe> {
  const result: Probe = { latencies: [], failures: {} };
  while (!done()) {
    const started = performance.now();
    const status = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return String(answer.status);
      },
      () => 'network error',
    );
    if (status === '200') result.latencies.push(performance.now() - started);
    else result.failures[status] = (result.failures[status] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  return result;
}

/** A shopper's page view (its own address) reporting one never-seen script, timed to its script.detected. */
async function pageViewWithNewScript(victim: Victim, clock: DeliveryClock, name: string, shopper: number): Promise<Delivery> {
  const src = `https://cdn.victim-widgets.example/${name}.js`;
  const started = performance.now();
  const answer = await call(`${victim.baseUrl}/sdk/v1/events?key=${victim.sdkKey}`, {
    method: 'POST',
    from: `198.51.100.${1 + (shopper % 250)}`,
    body: { page_url: `https://${victim.domain}/checkout`, session_id: `shopper-${name}`, sdk_version: '1.0.0', observations: [{ kind: 'script', src, hash: sri(name) }] },
  });
  const rejection = answer.status !== 202 ? `${answer.status} ${answer.json?.error?.code ?? ''}`.trim() : answer.json?.rejected ? String(answer.json.rejections?.[0]?.reason) : null;
  const arrived = await clock.arrival(src, DELIVERY_WAIT_MS);
  return { ms: arrived === null ? null : arrived - started, rejection };
}

/**
 * The victim's experience for `seconds`: both reads probed throughout, and a page view with a new script every
 * DELIVERY_EVERY_MS; the phase lasts until the last of those is delivered or given up on.
 */
export async function measureVictim(victim: Victim, clock: DeliveryClock, phase: string, seconds: number): Promise<VictimFigures> {
  let finished = false;
  const done = () => finished;
  const probes = Promise.all([probe(`${victim.baseUrl}/api/v1/stores`, victim.storesToken, done), probe(`${victim.baseUrl}/api/v1/scripts`, victim.scriptsToken, done)]);
  const deliveries: Array<Promise<Delivery>> = [];
  const started = performance.now();
  for (let n = 0; performance.now() - started < seconds * 1000; n += 1) {
    deliveries.push(pageViewWithNewScript(victim, clock, `${phase}-${n}`, n));
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_EVERY_MS));
  }
  const delivered = await Promise.all(deliveries);
  finished = true;
  const [stores, scripts] = await probes;
  return { stores, scripts, deliveries: delivered };
}
