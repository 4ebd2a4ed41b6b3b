import { Inject, Injectable } from '@nestjs/common';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type Observation, type ScriptObservation, type SdkIngestCommand, type SdkIngestReply, type StoreDocument } from '@pss/contracts';
import { CLOCK, DomainError, LruCache, type Clock } from '@pss/kernel';
import type { Frozen } from '@pss/read-store';
import { EdgeConnections } from './edge-connections';
import { EdgeHeaders } from './edge-headers';
import { EdgeScripts, type StoreScripts } from './edge-scripts';
import { isPageView } from './page-view';
import { SightingsFlusher } from './sightings-flusher';

export interface IntakeBatch {
  pageUrl: string;
  sessionId: string;
  sdkVersion: string;
  observations: Observation[];
  /** The client's address as ClientAddresses hashes it. */
  client: string;
}

/** An observation of the batch not recorded: a new script or a new signal beyond the store's budget of them. */
export interface Deferral {
  /** Its position in the batch's `observations`. */
  position: number;
  what: 'script' | 'signal';
  /** Whose budget is spent: the client address's share of the store's, or the store's. */
  spent: SpentShare;
  /** When the budget covers one again. */
  retryAfterSeconds: number;
}

export type SpentShare = NonNullable<SdkIngestReply['spent_share']>;

/** An observation of the batch refused for good, by its position in `observations`: sending it again changes nothing. */
export interface Refusal {
  position: number;
  reason: string;
}

/** What became of a batch: everything was taken but what is `deferred` or `refused`. */
export interface IntakeResult {
  deferred: Deferral[];
  refused: Refusal[];
}

/** Client addresses inventory deferred a store's new scripts for, until when and why (bounded like every cache). */
export const EXHAUSTED_CLIENTS_CACHED = 10_000;

/**
 * The SDK fast path. A page view of known scripts and unchanged headers is settled here, from memory: each script
 * is a lookup in EdgeScripts and the batch is counted by the SightingsFlusher, with no bus hop and no hashing.
 * Only what the edge cannot settle (a new script or new content, changed headers, a signal) goes to inventory, in
 * one command per batch; its answer teaches the edge. A connection forwarded from the same page lately is settled
 * here too (EdgeConnections). While inventory says a store's budget of new scripts (or
 * the address's share of it) is spent for a client address, scripts the edge has never seen are deferred here
 * for that address without asking, so a forged flood of them costs no command; the rest of the batch (headers,
 * signals, scripts to check again, and a script reading a card field, which inventory does not defer) still goes
 * through, and another address still asks: a script it reports after the first is recorded (ScriptWitnesses).
 */
@Injectable()
export class SdkIntake {
  private readonly scripts = new EdgeScripts();
  private readonly headers = new EdgeHeaders();
  private readonly connections = new EdgeConnections();
  private readonly exhausted = new LruCache<string, { until: number; spent: SpentShare }>(EXHAUSTED_CLIENTS_CACHED);

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sightings: SightingsFlusher,
  ) {}

  async take(store: Frozen<StoreDocument>, batch: IntakeBatch): Promise<IntakeResult> {
    const now = this.clock.now().getTime();
    const scripts = this.scripts.of(store._id);
    const client = `${store._id} ${batch.client}`;
    const spent = this.exhausted.get(client);
    const spentFor = spent !== undefined && spent.until > now ? Math.ceil((spent.until - now) / 1000) : undefined;
    const readers = readersOf(batch.observations);
    const sighted: string[] = [];
    const forwarded: Observation[] = [];
    const positions: number[] = [];
    const deferred: Deferral[] = [];
    const refused: Refusal[] = [];
    const forward = (observation: Observation, position: number) => {
      forwarded.push(observation);
      positions.push(position);
    };
    batch.observations.forEach((observation, position) => {
      if (observation.kind === 'script') {
        const verdict = scripts.verdict(observation, now);
        if (verdict.kind === 'known') sighted.push(verdict.scriptId);
        else if (verdict.kind === 'unknown' && spentFor !== undefined && !(observation.src !== undefined && readers.has(observation.src))) {
          deferred.push({ position, what: 'script', spent: spent!.spent, retryAfterSeconds: spentFor });
        }
        else forward(observation, position);
      } else if (!this.settledAtEdge(store._id, batch.pageUrl, observation, now)) {
        forward(observation, position);
      }
    });
    if (forwarded.length > 0) {
      const reply = await this.forward(store, batch, forwarded);
      if (reply.retry_after_seconds) this.exhausted.set(client, { until: now + reply.retry_after_seconds * 1000, spent: reply.spent_share ?? 'store' });
      this.learn(scripts, store, batch, forwarded, reply, now, sighted);
      deferred.push(...deferredOf(forwarded, positions, reply));
      if (reply.refused_headers) refused.push({ position: positions[reply.refused_headers.position], reason: reply.refused_headers.reason });
    }
    const visit = isPageView(batch) ? { path: new URL(batch.pageUrl).pathname, sessionId: batch.sessionId, client: batch.client } : null;
    this.sightings.count(store, visit, batch.observations.length, sighted, batch.sessionId, now);
    return { deferred: deferred.sort((a, b) => a.position - b.position), refused };
  }

  /** Unchanged headers, and a connection this page reported lately, need no bus hop. */
  private settledAtEdge(storeId: string, pageUrl: string, observation: Observation, now: number): boolean {
    if (observation.kind === 'headers') return this.headers.unchanged(storeId, pageUrl, observation.headers, now);
    return observation.kind === 'connection' && this.connections.fresh(storeId, pageUrl, observation, now);
  }

  private async forward(store: Frozen<StoreDocument>, batch: IntakeBatch, observations: Observation[]): Promise<SdkIngestReply> {
    const { pageUrl, sessionId, sdkVersion, client } = batch;
    const command: SdkIngestCommand = { storeId: store._id, pageUrl, sessionId, sdkVersion, observations, client };
    // Keyed by store: one inventory replica takes a store's batches, so its new-script and signal budgets and
    // caches are the store's whole (unkeyed, every replica had a budget of its own for the same store).
    const reply = await this.bus.request<SdkIngestReply>(COMMANDS.sdkIngest, command, { key: store._id });
    // Ingestion always answers; an empty reply is a server closing under the request (the bus passes `null` on).
    if (!reply) throw new DomainError('service_unavailable', 'The service could not be reached');
    return reply;
  }

  /** Inventory answers each forwarded script in order: remembered, and counted when it was already known there. */
  private learn(
    scripts: StoreScripts,
    store: Frozen<StoreDocument>,
    batch: IntakeBatch,
    forwarded: Observation[],
    reply: SdkIngestReply,
    now: number,
    sighted: string[],
  ): void {
    const sent = forwarded.filter((observation): observation is ScriptObservation => observation.kind === 'script');
    sent.forEach((observation, index) => {
      const settled = reply.scripts?.[index]; // absent from an inventory older than the edge (a rolling deploy)
      if (!settled || settled.outcome === 'deferred') return;
      scripts.remember(observation, settled.script_id, settled.hash, now, settled.held === true);
      if (settled.outcome === 'known') sighted.push(settled.script_id);
    });
    // A connection the signal budget deferred is not remembered: the next page view reports it again.
    const deferredSignals = new Set(reply.deferred_signals ?? []);
    forwarded.forEach((observation, index) => {
      if (observation.kind === 'connection' && !deferredSignals.has(index)) this.connections.remember(store._id, batch.pageUrl, observation, now);
    });
    // Refused headers are not remembered: the page's next view is told why again.
    if (reply.refused_headers) return;
    for (const observation of forwarded) if (observation.kind === 'headers') this.headers.remember(store._id, batch.pageUrl, observation.headers, now);
  }
}

/** What inventory deferred of the forwarded observations (it answers each forwarded script in order), by batch position. */
function deferredOf(forwarded: Observation[], positions: number[], reply: SdkIngestReply): Deferral[] {
  const found: Deferral[] = [];
  let script = 0;
  forwarded.forEach((observation, index) => {
    if (observation.kind !== 'script') return;
    if (reply.scripts?.[script]?.outcome === 'deferred') {
      found.push({ position: positions[index], what: 'script', spent: reply.spent_share ?? 'store', retryAfterSeconds: reply.retry_after_seconds ?? 1 });
    }
    script += 1;
  });
  for (const index of reply.deferred_signals ?? []) {
    found.push({ position: positions[index], what: 'signal', spent: reply.signals_spent_share ?? 'store', retryAfterSeconds: reply.signals_retry_after_seconds ?? 1 });
  }
  return found;
}

/** The scripts the batch's card-field reads name (reader and callers), as their observations' `src`. */
function readersOf(observations: Observation[]): Set<string> {
  const readers = new Set<string>();
  for (const observation of observations) {
    if (observation.kind === 'sensitive_field_access') [observation.src, ...(observation.callers ?? [])].forEach((src) => readers.add(src));
  }
  return readers;
}
