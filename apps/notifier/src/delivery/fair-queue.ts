import type { EndpointBreakers, EndpointVerdict } from './endpoint-breakers';

/** Whom an attempt is for and where it goes: the receiver's scheme://host:port, or the mail server. */
export interface Lane {
  org: string;
  endpoint: string;
}

export interface FairShares {
  /** Attempts under way at once in the process. */
  total: number;
  /** What one organization may hold of them, so the others always find room. */
  perOrganization: number;
  /** Attempts under way at once to one endpoint, whoever they are for: what a receiver host is asked to bear. */
  perEndpoint: number;
  /** What one organization may hold of an endpoint's, so tenants sharing a receiver host never fill it for the others. */
  perOrganizationAtEndpoint: number;
  /** Attempts of one organization that may wait in memory; beyond, they wait for the retry cycle instead. */
  waitingPerOrganization: number;
}

/** An attempt turned away: its endpoint is parked, or its organization already has its fill waiting. */
export const PARKED = Symbol('parked');

interface Waiting {
  lane: Lane;
  breakerKey: string;
  start: () => void;
  park: () => void;
}

/**
 * Runs attempts fairly between organizations: a slot that frees goes to the organization served longest ago (one
 * that just came first of all) that has an attempt within every share. A waiting attempt holds no slot, so one that cannot start (its endpoint
 * full) never keeps another from starting. With breakers, each organization's endpoint has its own: a tenant's
 * silent receiver parks that tenant's attempts to it, not those of another tenant on the same host.
 */
export class FairQueue<T> {
  /** Waiting attempts by organization, each in order. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** When each organization with attempts waiting or under way last had one started (a count of starts). */
  private readonly lastServed = new Map<string, number>();
  private starts = 0;
  private readonly runningByOrg = new Counts();
  private readonly runningByEndpoint = new Counts();
  private readonly runningByOrgEndpoint = new Counts();
  private running = 0;

  constructor(
    private readonly shares: FairShares,
    private readonly breakers?: { endpoints: EndpointBreakers; verdictOf: (value: T) => EndpointVerdict },
  ) {}

  /** Runs `task` once its turn comes; answers its value, or PARKED when it was turned away without running. */
  async run(lane: Lane, task: () => Promise<T>): Promise<T | typeof PARKED> {
    const breakerKey = `${lane.org} ${lane.endpoint}`;
    const queued = this.waiting.get(lane.org) ?? [];
    if (this.breakers?.endpoints.state(breakerKey) === 'open' || queued.length >= this.shares.waitingPerOrganization) return PARKED;
    const turn = await new Promise<'start' | 'park'>((resolve) => {
      queued.push({ lane, breakerKey, start: () => resolve('start'), park: () => resolve('park') });
      this.waiting.set(lane.org, queued);
      this.pump();
    });
    if (turn === 'park') return PARKED;
    let verdict: EndpointVerdict = 'unknown';
    try {
      const value = await task();
      if (this.breakers) verdict = this.breakers.verdictOf(value);
      return value;
    } finally {
      this.finish(lane, breakerKey, verdict);
    }
  }

  private finish(lane: Lane, breakerKey: string, verdict: EndpointVerdict): void {
    this.running -= 1;
    this.runningByOrg.remove(lane.org);
    this.runningByEndpoint.remove(lane.endpoint);
    this.runningByOrgEndpoint.remove(breakerKey);
    if (this.breakers?.endpoints.record(breakerKey, verdict) === 'open') this.parkAll(breakerKey);
    this.forgetIdle(lane.org);
    this.pump();
  }

  /** Starts every waiting attempt that fits, each time for the organization served longest ago. */
  private pump(): void {
    while (this.running < this.shares.total) {
      let chosen: { org: string; queued: Waiting[]; index: number; servedAt: number } | undefined;
      for (const [org, queued] of this.waiting) {
        const servedAt = this.lastServed.get(org) ?? 0;
        if (chosen && servedAt >= chosen.servedAt) continue;
        const index = queued.findIndex((candidate) => this.fits(candidate));
        if (index >= 0) chosen = { org, queued, index, servedAt };
      }
      if (!chosen) return;
      const [next] = chosen.queued.splice(chosen.index, 1);
      if (!chosen.queued.length) this.waiting.delete(chosen.org);
      this.lastServed.set(chosen.org, ++this.starts);
      this.start(next);
    }
  }

  private fits({ lane, breakerKey }: Waiting): boolean {
    const { shares } = this;
    if (this.runningByOrg.of(lane.org) >= shares.perOrganization) return false;
    if (this.runningByEndpoint.of(lane.endpoint) >= shares.perEndpoint) return false;
    if (this.runningByOrgEndpoint.of(breakerKey) >= shares.perOrganizationAtEndpoint) return false;
    const breaker = this.breakers?.endpoints.state(breakerKey);
    return breaker === undefined || breaker === 'closed' || breaker === 'half-open';
  }

  private start(next: Waiting): void {
    if (this.breakers?.endpoints.state(next.breakerKey) === 'half-open') this.breakers.endpoints.probe(next.breakerKey);
    this.running += 1;
    this.runningByOrg.add(next.lane.org);
    this.runningByEndpoint.add(next.lane.endpoint);
    this.runningByOrgEndpoint.add(next.breakerKey);
    next.start();
  }

  /** An organization with nothing waiting or under way starts afresh, first in turn. */
  private forgetIdle(org: string): void {
    if (!this.waiting.has(org) && this.runningByOrg.of(org) === 0) this.lastServed.delete(org);
  }

  /** An endpoint just opened its breaker: what waits for it goes back to wait for its retry. */
  private parkAll(breakerKey: string): void {
    for (const [org, queued] of this.waiting) {
      const parked = queued.filter((candidate) => candidate.breakerKey === breakerKey);
      if (!parked.length) continue;
      const kept = queued.filter((candidate) => candidate.breakerKey !== breakerKey);
      if (kept.length) this.waiting.set(org, kept);
      else this.waiting.delete(org);
      parked.forEach((candidate) => candidate.park());
    }
  }
}

/** How many of something are under way, by key; a key at zero is forgotten. */
class Counts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.of(key) + 1);
  }

  remove(key: string): void {
    const left = this.of(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}
