import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  PAYMENT_PAGES,
  SCRIPTS,
  isExpectedIframe,
  STORES,
  type ConnectionObservation,
  type CspViolationObservation,
  type IframeObservation,
  type IngestedScript,
  type Observation,
  type PaymentPageDocument,
  type PaymentRecipientObservation,
  type ScriptObservation,
  type SdkIngestCommand,
  type SdkIngestReply,
  type SdkRecordSightingsCommand,
  type SdkRecordSightingsReply,
  type SensitiveFieldAccessObservation,
  type StoreDocument,
  type StoreSightings,
} from '@pss/contracts';
import type { CommandMetaCarrier } from '@pss/bus';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '@pss/event-store';
import { CLOCK, LruCache, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { scriptKey } from '@pss/sdk-contract';
import { classifyScript } from '../catalog/classify';
import { ConnectionSightings } from '../connections/connection-sightings';
import { isThreatHost } from '../catalog/catalog';
import { PromptDecisions } from '../policies/prompt-decisions';
import { scriptDecider } from '../scripts/script.decider';
import { scriptStream } from '../scripts/script.events';
import type { HeldScript } from '../scripts/script.projection';
import { scriptHost, scriptIdFor } from '../scripts/script-identity';
import { KnownScripts, type KnownScript } from './known-scripts';
import { DEFAULT_NEW_SCRIPT_LIMITS, DEFAULT_NEW_SIGNAL_LIMITS, NEW_SCRIPT_LIMITS, NEW_SIGNAL_LIMITS, type BudgetLimits } from './store-budget';
import { ScriptWitnesses } from './script-witnesses';
import { SharedBudget, type SpentShare } from './shared-budget';
import { pageHeadersDecider, pageHeadersStream, UndeclaredPagesCapped } from './page-headers.decider';
import { securityHeaders } from './security-headers';
import { sightingsStream, sightingsWindowStream } from './sightings';
import { signalsStream, type ReadingScript, type SignalEvent } from './signals';

/** Store pages whose headers this process remembers (a key and a fingerprint of some 300 bytes: about 15 MB). */
export const KNOWN_HEADER_PAGES_CACHED = 50_000;
/** Signals this process has seen, per store and content (a digest of about 100 bytes each: about 10 MB). */
export const KNOWN_SIGNALS_CACHED = 100_000;

const SDK_ACTOR = 'sdk';

/**
 * Turns what the gateway could not settle of an SDK batch into the inventory: a new script, a new hash, a changed
 * security header, every signal (CSP violation, sensitive-field access, unexpected iframe, swapped recipient) and
 * a new connection (or one seen anew) is a domain event at once. Known scripts are answered as such, for the gateway to count; the counts come back
 * once per flush window (`recordSightings`).
 */
@Injectable()
export class SdkIngestion {
  private readonly logger = new Logger('SdkIngestion');
  private readonly known = new KnownScripts();
  /** The last headers recorded per store page, so an unchanged page costs no stream read. */
  private readonly knownHeaders = new LruCache<string, string>(KNOWN_HEADER_PAGES_CACHED);
  private readonly knownSignals = new LruCache<string, true>(KNOWN_SIGNALS_CACHED);
  private readonly witnesses = new ScriptWitnesses();
  private readonly connections: ConnectionSightings;
  private readonly budget: SharedBudget;
  private readonly signalBudget: SharedBudget;

  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly decisions: PromptDecisions,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(NEW_SCRIPT_LIMITS) limits?: BudgetLimits,
    @Optional() @Inject(NEW_SIGNAL_LIMITS) signalLimits?: BudgetLimits,
  ) {
    this.budget = new SharedBudget(limits ?? DEFAULT_NEW_SCRIPT_LIMITS);
    this.signalBudget = new SharedBudget(signalLimits ?? DEFAULT_NEW_SIGNAL_LIMITS);
    this.connections = new ConnectionSightings(aggregates);
  }

  /**
   * Bounded work whatever the batch holds: each known script is a lookup in memory, at most a batch's worth of
   * new scripts is recorded (the store's budget of them), decided side by side, one headers decision, one signal
   * event. What fans out from a new script (the policy decision, alerts, deliveries) runs behind the answer: the
   * policies start at once (PromptDecisions), the rest from the recorded events. When the budget cannot cover the
   * batch's new scripts, those it could are recorded and the others answered `deferred` (a later page view reports
   * them again); the headers and signals are recorded all the same, so a flood of forged scripts cannot hide a
   * skimmer's card-field read or a CSP violation. Signals have a budget of their own, spent only by new ones (a
   * content not seen for the store): those beyond it are answered in `deferred_signals`. Each client address may
   * spend its share of either budget only; a new script vouched for (reported from a second address, or reading a
   * card field in this batch) is not counted against them (SharedBudget).
   */
  async ingest(batch: SdkIngestCommand & CommandMetaCarrier): Promise<SdkIngestReply> {
    const store = await this.readStore.collection<StoreDocument>(STORES).findOne({ _id: batch.storeId });
    if (!store) return { accepted: 0, scripts: [] };
    const at = this.clock.now();
    const context: CommandContext = { actor: SDK_ACTOR, orgId: store.org_id, deadline: batch.command?.deadline };
    const seen = { storeId: store._id, orgId: store.org_id, pageUrl: batch.pageUrl, sessionId: batch.sessionId, at: at.toISOString() };
    const scripts: IngestedScript[] = [];
    const changes = new Map<string, { observation: ScriptObservation; answers: IngestedScript[] }>();
    const sightingsOfHeld: typeof changes = new Map();
    const accesses = new Map<string, SensitiveFieldAccessObservation>();
    const signals = new Map<string, SignalEvent>();
    const connections: ConnectionObservation[] = [];
    let headers: { reported: Record<string, string>; position: number } | undefined;
    const client = batch.client;
    const signalsLeftOut = this.newSignalsLeftOut(store._id, client, batch.observations, at.getTime());

    for (const [position, observation] of batch.observations.entries()) {
      if (signalsLeftOut.positions.has(position)) continue;
      switch (observation.kind) {
        case 'script': {
          const scriptId = scriptIdFor(store._id, scriptKey(observation));
          const known = await this.knownHash(scriptId, { hash: observation.hash ?? null, refused: observation.refused_integrity !== undefined }, at);
          const answer: IngestedScript = { script_id: scriptId, hash: known?.hash ?? null, outcome: known?.held === false ? 'known' : 'deferred' };
          scripts.push(answer);
          if (known?.held === false) break;
          // A sighting of a held mismatch goes to its decider, but it is no new script: it spends no budget.
          const pending = known ? sightingsOfHeld : changes;
          const change = pending.get(scriptId) ?? { observation, answers: [] };
          change.answers.push(answer);
          pending.set(scriptId, change);
          break;
        }
        case 'headers':
          headers = { reported: observation.headers, position }; // one page per batch: its last report of the headers stands
          break;
        case 'csp_violation':
          this.signal(signals, cspViolation(observation, seen));
          break;
        case 'sensitive_field_access':
          accesses.set(JSON.stringify([observation.field, observation.src, observation.callers]), observation);
          break;
        case 'iframe':
          this.signal(signals, unexpectedIframe(observation, store, seen));
          break;
        case 'payment_recipient':
          this.signal(signals, recipientMismatch(observation, store, seen));
          break;
        case 'connection':
          connections.push(observation);
          break;
      }
    }

    const { granted, allowance } = this.affordable(store._id, client, changes, readersOf(store._id, accesses.values()), at.getTime());
    await Promise.all(
      [...sightingsOfHeld, ...granted].map(async ([scriptId, change]) => {
        const settled = await this.script(scriptId, change.observation, store, batch, context, at);
        for (const answer of change.answers) Object.assign(answer, settled);
      }),
    );
    const headersRefusal = headers && (await this.headers(headers.reported, store, batch.pageUrl, context, at));
    for (const access of accesses.values()) {
      const read = await this.sensitiveFieldAccess(access, seen, context, at);
      this.connections.rememberRead(seen, read.data.field, [read.data, ...(read.data.callers ?? [])], at);
      this.signal(signals, read);
    }
    await this.connections.record(connections, seen, context, at);
    if (signals.size) {
      await this.eventStore.append(signalsStream(store._id), [...signals.values()].map((event) => ({ ...event, metadata: { actor: context.actor, orgId: context.orgId } })));
    }
    const deferred = scripts.filter((answer) => answer.outcome === 'deferred').length;
    const reply: SdkIngestReply = { accepted: batch.observations.length - deferred - signalsLeftOut.positions.size, scripts };
    if (headersRefusal) {
      reply.accepted -= 1;
      reply.refused_headers = { position: headers!.position, reason: headersRefusal };
    }
    if (allowance.retryAfterSeconds) Object.assign(reply, { retry_after_seconds: allowance.retryAfterSeconds, spent_share: allowance.spent });
    if (signalsLeftOut.positions.size) {
      reply.deferred_signals = [...signalsLeftOut.positions];
      reply.signals_retry_after_seconds = signalsLeftOut.retryAfterSeconds;
      reply.signals_spent_share = signalsLeftOut.spent;
    }
    return reply;
  }

  /**
   * The positions of the batch's new signals the store's budget cannot cover. A signal whose content was seen for
   * the store is not new (a page repeating itself is counted, as before); new contents are granted in order of
   * appearance, and remembered.
   */
  private newSignalsLeftOut(storeId: string, client: string | undefined, observations: Observation[], now: number): { positions: Set<number>; retryAfterSeconds?: number; spent?: SpentShare } {
    const fresh = new Map<string, number[]>();
    observations.forEach((observation, position) => {
      if (observation.kind === 'script') return;
      const identity = createHash('sha256').update(`${storeId} ${JSON.stringify(observation)}`).digest('base64');
      if (this.knownSignals.get(identity)) return;
      fresh.set(identity, [...(fresh.get(identity) ?? []), position]);
    });
    const positions = new Set<number>();
    if (fresh.size === 0) return { positions };
    const allowance = this.signalBudget.take(storeId, client, fresh.size, now);
    [...fresh].forEach(([identity, carriers], rank) => {
      if (rank < allowance.granted) this.knownSignals.set(identity, true);
      else carriers.forEach((position) => positions.add(position));
    });
    return { positions, retryAfterSeconds: allowance.retryAfterSeconds, spent: allowance.spent };
  }

  /**
   * The batch's new scripts the budget covers, in order of appearance: those vouched for (another address reported
   * them before, or they read a card field in this batch, whose read is recorded) from their own lane, the others
   * within the client's share of the store's budget. Every one is witnessed, so a second address's report vouches.
   */
  private affordable<T>(storeId: string, client: string | undefined, changes: Map<string, T>, readers: Set<string>, now: number) {
    const vouched: [string, T][] = [];
    const others: [string, T][] = [];
    for (const change of changes) {
      const corroborated = this.witnesses.corroborates(change[0], client);
      (corroborated || readers.has(change[0]) ? vouched : others).push(change);
    }
    const forVouched = vouched.length ? this.budget.takeVouched(storeId, vouched.length, now) : { granted: 0 };
    const forOthers = others.length ? this.budget.take(storeId, client, others.length, now) : { granted: 0 };
    const left = forOthers.retryAfterSeconds ? forOthers : forVouched;
    return { granted: [...vouched.slice(0, forVouched.granted), ...others.slice(0, forOthers.granted)], allowance: left };
  }

  /**
   * Records the gateway's counted windows, one `SightingsFlushed` per store; answers the stores whose window could
   * not be written, which the gateway keeps for its next flush.
   */
  async recordSightings(command: SdkRecordSightingsCommand): Promise<SdkRecordSightingsReply> {
    // Side by side, so the event store commits a flush of many stores together rather than one fsync per store.
    const written = await Promise.allSettled(command.windows.map((window) => this.recordWindow(window)));
    const failed = command.windows.filter((_, index) => written[index].status === 'rejected').map((window) => window.storeId);
    const failure = written.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) this.logger.error({ message: 'sightings not recorded', stores: failed.length, error: (failure.reason as Error).message });
    return { failed_store_ids: failed };
  }

  /** Once per window id: a window already written is recorded (an edge older than window ids appends each time). */
  private async recordWindow(window: StoreSightings): Promise<void> {
    const recorded = [{ type: 'SightingsFlushed', data: window, metadata: { actor: SDK_ACTOR, orgId: window.orgId } }];
    if (!window.windowId) {
      await this.eventStore.append(sightingsStream(window.storeId), recorded);
      return;
    }
    try {
      await this.eventStore.append(sightingsWindowStream(window.storeId, window.windowId), recorded, { expectedRevision: 'no_stream' });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }

  /**
   * The script's current hash when the sighting's content is not new: its hash is the current one (an unhashed
   * sighting matches any) and the browser's refusal of it is as recorded, from this process's memory or from the
   * read model (then remembered). `held` when the script holds a mismatch: then the authorized content is not new
   * either, and the sighting is for its decider to count. `undefined` when the script, the content or the refusal
   * is new.
   */
  private async knownHash(scriptId: string, seen: Pick<KnownScript, 'hash' | 'refused'>, at: Date): Promise<{ hash: string | null; held: boolean } | undefined> {
    const sameAs = (known: KnownScript) =>
      (seen.hash === null || seen.hash === known.hash || (known.held && seen.hash === known.authorized)) && seen.refused === known.refused;
    const remembered = this.known.current(scriptId, at.getTime());
    if (remembered && sameAs(remembered)) return { hash: remembered.hash, held: remembered.held };
    const script = await this.readStore.collection<HeldScript>(SCRIPTS).findOne({ _id: scriptId });
    if (!script) return undefined;
    const recorded: KnownScript = {
      hash: script.current_hash,
      refused: script.sri_refused === true,
      held: script._mismatch_held === true,
      authorized: script.authorized_hash,
    };
    if (!sameAs(recorded)) return undefined;
    this.known.remember(scriptId, recorded, at.getTime());
    return { hash: recorded.hash, held: recorded.held };
  }

  /** A new script or new content: recorded, seen by this request's next read, and put to the policies. */
  private async script(
    scriptId: string,
    observation: ScriptObservation,
    store: StoreDocument,
    batch: SdkIngestCommand,
    context: CommandContext,
    at: Date,
  ): Promise<Pick<IngestedScript, 'hash' | 'outcome'>> {
    const hash = observation.hash ?? null;
    const host = scriptHost(observation);
    const classified = classifyScript({ host, inline: observation.inline }, store.domain);
    const { state, events } = await this.aggregates.decide(
      scriptStream(scriptId),
      scriptDecider,
      {
        type: 'ObserveScript',
        sighting: {
          scriptId,
          storeId: store._id,
          orgId: store.org_id,
          src: observation.inline ? `inline:${hash}` : observation.src!,
          inline: observation.inline,
          host,
          hash,
          sriHash: observation.hash_source === 'sri' ? hash : null,
          hashSource: observation.hash_source ?? (hash ? 'sdk' : null),
          integrityAttr: observation.integrity_attr ?? null,
          sizeBytes: observation.size_bytes ?? null,
          gtmContainer: observation.gtm_container ?? null,
          pageUrl: batch.pageUrl,
          sessionId: batch.sessionId,
          refusedIntegrity: observation.refused_integrity ?? null,
          client: batch.client ?? null,
        },
        classification: {
          type: classified.type,
          vendorId: classified.vendor_id,
          category: classified.category,
          threat: host !== null && isThreatHost(host),
        },
        at,
      },
      context,
    );
    const held = state.heldMismatch !== null;
    this.known.remember(scriptId, { hash: state.currentHash, refused: state.refusedHash !== null, held, authorized: state.authorizedHash }, at.getTime());
    if (events.some((event) => event.type === 'ScriptDetected' || event.type === 'ScriptHashChanged')) this.decisions.decide(scriptId, state.currentHash);
    // Recorded meanwhile (by another replica, or a concurrent batch): then it is a sighting like any other. So is a
    // held mismatch's sighting that only counts towards restoring it: the gateway counts it, as no event does.
    const recordsSighting = events.some((event) => event.type !== 'ScriptAuthorizedContentSeen' && event.type !== 'ScriptIntegrityRestored');
    return { hash: state.currentHash, outcome: recordsSighting ? 'recorded' : 'known', ...(held ? { held } : {}) };
  }

  /** Records the page's headers when they changed; answers why not when the page is a new path past the store's cap. */
  private async headers(reported: Record<string, string>, store: StoreDocument, pageUrl: string, context: CommandContext, at: Date): Promise<string | undefined> {
    const headers = securityHeaders(reported);
    const page = new URL(pageUrl).pathname;
    const cacheKey = `${store._id} ${page}`;
    const fingerprint = JSON.stringify(headers);
    if (this.knownHeaders.get(cacheKey) === fingerprint) return undefined;
    const pages = await this.readStore.collection<PaymentPageDocument>(PAYMENT_PAGES).find({ store_id: store._id });
    const paymentPages = pages.map((declared) => declared.url_pattern);
    try {
      await this.aggregates.decide(
        pageHeadersStream(store._id),
        pageHeadersDecider,
        { storeId: store._id, orgId: store.org_id, page, pageUrl, headers, paymentPages, at },
        context,
      );
    } catch (error) {
      if (error instanceof UndeclaredPagesCapped) return error.message;
      throw error;
    }
    this.knownHeaders.set(cacheKey, fingerprint);
    return undefined;
  }

  /**
   * The read is recorded on every script of its stack, the reader and those that called it: a skimmer that reads
   * through an authorized library read the field as much as the library did. The signal names them all, each
   * with whether it is authorized; the alert is the alerts service's to judge.
   */
  private async sensitiveFieldAccess(
    observation: SensitiveFieldAccessObservation,
    seen: SeenFields,
    context: CommandContext,
    at: Date,
  ): Promise<Extract<SignalEvent, { type: 'SensitiveFieldAccessed' }>> {
    const scripts = [observation.src, ...(observation.callers ?? [])];
    const [reader, ...callers] = await Promise.all(scripts.map((src) => this.fieldRead(src, observation.field, seen.storeId, context, at)));
    return { type: 'SensitiveFieldAccessed', data: { ...seen, ...reader, field: observation.field, ...(callers.length ? { callers } : {}) } };
  }

  private async fieldRead(src: string, field: string, storeId: string, context: CommandContext, at: Date): Promise<ReadingScript> {
    const scriptId = scriptIdFor(storeId, scriptKey({ inline: false, src }));
    const { state } = await this.aggregates.decide(scriptStream(scriptId), scriptDecider, { type: 'RecordSensitiveFieldAccess', field, at }, context).catch(
      () => ({ state: scriptDecider.initialState() }), // a script not reported (yet) is still worth the signal
    );
    return { scriptId, src, scriptAuthorized: state.status === 'authorized' };
  }

  /** One event per distinct signal of a batch: a page repeating itself is not news twice. */
  private signal(signals: Map<string, SignalEvent>, event: SignalEvent | undefined): void {
    if (!event) return;
    const { at: _at, sessionId: _session, ...identity } = event.data;
    signals.set(`${event.type} ${JSON.stringify(identity)}`, event);
  }
}

/** The scripts a batch's card-field reads name, the reader and its callers, by script id. */
function readersOf(storeId: string, accesses: Iterable<SensitiveFieldAccessObservation>): Set<string> {
  const readers = new Set<string>();
  for (const access of accesses) {
    for (const src of [access.src, ...(access.callers ?? [])]) readers.add(scriptIdFor(storeId, scriptKey({ inline: false, src })));
  }
  return readers;
}

type SeenFields = { storeId: string; orgId: string; pageUrl: string; sessionId: string; at: string };

const cspViolation = (observation: CspViolationObservation, seen: SeenFields): SignalEvent => ({
  type: 'CspViolationObserved',
  data: { ...seen, directive: observation.directive, blockedUri: observation.blocked_uri, sourceFile: observation.source_file ?? null },
});

/** An iframe is unexpected when the store lists expected origins and its origin is none of them. */
function unexpectedIframe(observation: IframeObservation, store: StoreDocument, seen: SeenFields): SignalEvent | undefined {
  const expected = store.sdk_config?.expected_iframe_origins ?? [];
  if (expected.length === 0 || isExpectedIframe(observation.origin, expected)) return undefined;
  const host = iframeHost(observation.origin);
  return { type: 'UnexpectedIframeObserved', data: { ...seen, origin: observation.origin, host: host ?? observation.origin, expected } };
}

function iframeHost(origin: string): string | undefined {
  try {
    return new URL(origin.includes('://') ? origin : `https://${origin}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A recipient on the page that matches none of the store's pinned ones for that method (when it pins any). */
function recipientMismatch(observation: PaymentRecipientObservation, store: StoreDocument, seen: SeenFields): SignalEvent | undefined {
  const pinned = store.recipients.filter((recipient) => recipient.active && recipient.method === observation.method);
  if (pinned.length === 0 || pinned.some((recipient) => recipient.key_hash === observation.key_hash)) return undefined;
  return { type: 'PaymentRecipientMismatched', data: { ...seen, method: observation.method, keyHash: observation.key_hash, pinned: pinned.length } };
}
