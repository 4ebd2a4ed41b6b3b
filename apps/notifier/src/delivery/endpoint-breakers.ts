import type { Clock } from '@pss/kernel';

export interface BreakerSettings {
  /** Consecutive timeouts that open an endpoint's breaker. */
  timeoutsToOpen: number;
  /** How long an open breaker parks its endpoint before one attempt may probe it again. */
  halfOpenAfterMs: number;
}

/**
 * `closed`: attempts go out. `open`: none does; they wait for their retry. `half-open`: the next attempt is a probe.
 * `probing`: the probe is under way and the others wait for its outcome, holding nothing.
 */
export type BreakerState = 'closed' | 'open' | 'half-open' | 'probing';

/**
 * How an attempt ended, as far as the endpoint's health goes: it waited out the timeout, it ended `prompt`ly (any
 * answer, a refusal), or it never reached the endpoint (`unknown`).
 */
export type EndpointVerdict = 'timeout' | 'prompt' | 'unknown';

interface Breaker {
  timeouts: number;
  openedAt?: number;
  probing: boolean;
}

/**
 * A breaker per endpoint. Only timeouts count: they are what holds a slot for the whole delivery timeout, where a
 * refusal or an error status comes back at once. A prompt end closes the breaker; an attempt that never reached
 * the endpoint changes nothing but ends a probe.
 */
export class EndpointBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly clock: Clock,
  ) {}

  state(endpoint: string): BreakerState {
    const breaker = this.breakers.get(endpoint);
    if (!breaker || breaker.openedAt === undefined) return 'closed';
    if (breaker.probing) return 'probing';
    return this.clock.now().getTime() - breaker.openedAt < this.settings.halfOpenAfterMs ? 'open' : 'half-open';
  }

  /** A half-open endpoint's next attempt starts: the others wait for its outcome. */
  probe(endpoint: string): void {
    const breaker = this.breakers.get(endpoint);
    if (breaker) breaker.probing = true;
  }

  /** Records how an attempt ended; answers the breaker's state afterwards. */
  record(endpoint: string, verdict: EndpointVerdict): BreakerState {
    const breaker = this.breakers.get(endpoint) ?? { timeouts: 0, probing: false };
    breaker.probing = false;
    if (verdict === 'prompt') {
      this.breakers.delete(endpoint);
      return 'closed';
    }
    if (verdict === 'timeout') {
      breaker.timeouts += 1;
      // Opened again from this timeout on: an endpoint still silent stays parked a full delay more.
      if (breaker.timeouts >= this.settings.timeoutsToOpen) breaker.openedAt = this.clock.now().getTime();
    }
    // An idle closed breaker is forgotten, so the map holds only endpoints that are timing out.
    if (breaker.timeouts === 0) this.breakers.delete(endpoint);
    else this.breakers.set(endpoint, breaker);
    return this.state(endpoint);
  }
}
