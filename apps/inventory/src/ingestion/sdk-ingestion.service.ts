import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  SCRIPTS,
  STORES,
  type CspViolationObservation,
  type IframeObservation,
  type Observation,
  type PaymentRecipientObservation,
  type ScriptDocument,
  type ScriptObservation,
  type SdkIngestReply,
  type SensitiveFieldAccessObservation,
  type StoreDocument,
} from '@pss/contracts';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { CLOCK, LruCache, type Clock } from '@pss/kernel';
import { AggregateRepository, PLATFORM_OPTIONS, type CommandContext, type PlatformOptions } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { classifyScript } from '../catalog/classify';
import { isThreatHost } from '../catalog/catalog';
import { scriptDecider } from '../scripts/script.decider';
import { scriptStream } from '../scripts/script.events';
import { scriptHost, scriptIdFor, scriptKey } from '../scripts/script-identity';
import { KnownScripts } from './known-scripts';
import { NEW_SCRIPT_LIMITS, NewScriptBudget, type NewScriptLimits } from './new-script-budget';
import { pageHeadersDecider, pageHeadersStream } from './page-headers.decider';
import { securityHeaders } from './security-headers';
import { SightingBuffer, sightingsStream, type SightingsEvent } from './sightings';
import { signalsStream, type SignalEvent } from './signals';

/** How long repeated sightings are counted in memory before they are recorded (lost on a crash, at most this). */
export const FLUSH_INTERVAL_MS = 5_000;
/** Store pages whose headers this process remembers (a key and a fingerprint of some 300 bytes: about 15 MB). */
export const KNOWN_HEADER_PAGES_CACHED = 50_000;

export interface IngestBatch {
  storeId: string;
  pageUrl: string;
  sessionId: string;
  sdkVersion: string;
  observations: Observation[];
}

const SDK_ACTOR = 'sdk';

/**
 * Turns what the SDK reports into the inventory: a new script, a new hash, a changed security header and every
 * signal (CSP violation, sensitive-field access, unexpected iframe, swapped recipient) is a domain event at
 * once; a known script seen again is only counted, and the counts are recorded once per flush window.
 */
@Injectable()
export class SdkIngestion implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SdkIngestion');
  private readonly buffer = new SightingBuffer();
  private readonly known = new KnownScripts();
  /** The last headers recorded per store page, so an unchanged page costs no stream read. */
  private readonly knownHeaders = new LruCache<string, string>(KNOWN_HEADER_PAGES_CACHED);
  private readonly budget: NewScriptBudget;
  private pending: SightingsEvent[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PLATFORM_OPTIONS) private readonly options: PlatformOptions,
    @Optional() @Inject(NEW_SCRIPT_LIMITS) limits?: NewScriptLimits,
  ) {
    this.budget = new NewScriptBudget(limits);
  }

  onApplicationBootstrap(): void {
    if (this.options.background) this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /**
   * Bounded work whatever the batch holds: each known script is a lookup in memory, at most a batch's worth of
   * new scripts is recorded (the store's NewScriptBudget), one headers decision, one signal event. What fans
   * out from a new script (the policy decision, alerts, deliveries) runs behind the answer, from the recorded
   * events. When the budget cannot cover the batch's new scripts, those it could are recorded and nothing else
   * (the SDK sends the batch again after `retry_after_seconds`, and its sightings are counted then).
   */
  async ingest(batch: IngestBatch): Promise<SdkIngestReply> {
    const store = await this.readStore.collection<StoreDocument>(STORES).findOne({ _id: batch.storeId });
    if (!store) return { accepted: 0 };
    const at = this.clock.now();
    const context: CommandContext = { actor: SDK_ACTOR, orgId: store.org_id };
    const seen = { storeId: store._id, orgId: store.org_id, pageUrl: batch.pageUrl, sessionId: batch.sessionId, at: at.toISOString() };
    const sighted: string[] = [];
    const changes = new Map<string, ScriptObservation>();
    const accesses = new Map<string, SensitiveFieldAccessObservation>();
    const signals = new Map<string, SignalEvent>();
    let headers: Record<string, string> | undefined;

    for (const observation of batch.observations) {
      switch (observation.kind) {
        case 'script': {
          const scriptId = scriptIdFor(store._id, scriptKey(observation));
          if (await this.isKnown(scriptId, observation.hash ?? null, at)) sighted.push(scriptId);
          else if (!changes.has(scriptId)) changes.set(scriptId, observation);
          break;
        }
        case 'headers':
          headers = observation.headers; // one page per batch: its last report of the headers stands
          break;
        case 'csp_violation':
          this.signal(signals, cspViolation(observation, seen));
          break;
        case 'sensitive_field_access':
          accesses.set(`${observation.src} ${observation.field}`, observation);
          break;
        case 'iframe':
          this.signal(signals, unexpectedIframe(observation, store, seen));
          break;
        case 'payment_recipient':
          this.signal(signals, recipientMismatch(observation, store, seen));
          break;
      }
    }

    const allowance = changes.size ? this.budget.take(store._id, changes.size, at.getTime()) : { granted: 0 };
    for (const [scriptId, observation] of [...changes].slice(0, allowance.granted)) await this.script(scriptId, observation, store, batch, context, at);
    if (allowance.retryAfterSeconds) return { accepted: allowance.granted, retry_after_seconds: allowance.retryAfterSeconds };

    this.buffer.recordBatch(store._id, store.org_id, batch.observations.length, at);
    for (const scriptId of sighted) this.buffer.recordScript(store._id, store.org_id, scriptId, batch.sessionId, at);
    if (headers) await this.headers(headers, store, batch.pageUrl, context, at);
    for (const access of accesses.values()) this.signal(signals, await this.sensitiveFieldAccess(access, seen, context, at));
    if (signals.size) {
      await this.eventStore.append(signalsStream(store._id), [...signals.values()].map((event) => ({ ...event, metadata: { ...context } })));
    }
    return { accepted: batch.observations.length };
  }

  /** Records the counted sightings; a failed write is kept for the next flush. */
  async flush(): Promise<void> {
    const events = [...this.pending, ...this.buffer.drain()];
    this.pending = [];
    for (const event of events) {
      try {
        await this.eventStore.append(sightingsStream(event.data.storeId), [{ ...event, metadata: { actor: SDK_ACTOR, orgId: event.data.orgId } }]);
      } catch (error) {
        this.pending.push(event);
        this.logger.error({ message: 'sightings not recorded, retrying at the next flush', store_id: event.data.storeId, error: (error as Error).message });
      }
    }
  }

  /** Known when this process remembers its hash, or the read model holds it with that hash (then remembered). */
  private async isKnown(scriptId: string, hash: string | null, at: Date): Promise<boolean> {
    if (this.known.matches(scriptId, hash, at.getTime())) return true;
    const script = await this.readStore.collection<ScriptDocument>(SCRIPTS).findOne({ _id: scriptId });
    if (!script || (hash !== null && hash !== script.current_hash)) return false;
    this.known.remember(scriptId, script.current_hash, at.getTime());
    return true;
  }

  /** A new script or new content: recorded, and seen by this request's next read (the policies decide behind it). */
  private async script(scriptId: string, observation: ScriptObservation, store: StoreDocument, batch: IngestBatch, context: CommandContext, at: Date): Promise<void> {
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
    this.known.remember(scriptId, state.currentHash, at.getTime());
    // Recorded meanwhile by another replica: then it is a sighting like any other.
    if (events.length === 0) this.buffer.recordScript(store._id, store.org_id, scriptId, batch.sessionId, at);
  }

  private async headers(reported: Record<string, string>, store: StoreDocument, pageUrl: string, context: CommandContext, at: Date): Promise<void> {
    const headers = securityHeaders(reported);
    const page = new URL(pageUrl).pathname;
    const cacheKey = `${store._id} ${page}`;
    const fingerprint = JSON.stringify(headers);
    if (this.knownHeaders.get(cacheKey) === fingerprint) return;
    await this.aggregates.decide(
      pageHeadersStream(store._id),
      pageHeadersDecider,
      { storeId: store._id, orgId: store.org_id, page, pageUrl, headers, at },
      context,
    );
    this.knownHeaders.set(cacheKey, fingerprint);
  }

  private async sensitiveFieldAccess(
    observation: SensitiveFieldAccessObservation,
    seen: SeenFields,
    context: CommandContext,
    at: Date,
  ): Promise<SignalEvent> {
    const scriptId = scriptIdFor(seen.storeId, scriptKey({ inline: false, src: observation.src }));
    const { state } = await this.aggregates.decide(scriptStream(scriptId), scriptDecider, { type: 'RecordSensitiveFieldAccess', field: observation.field, at }, context).catch(
      () => ({ state: scriptDecider.initialState() }), // a script not reported (yet) is still worth the signal
    );
    return {
      type: 'SensitiveFieldAccessed',
      data: { ...seen, scriptId, src: observation.src, field: observation.field, scriptAuthorized: state.status === 'authorized' },
    };
  }

  /** One event per distinct signal of a batch: a page repeating itself is not news twice. */
  private signal(signals: Map<string, SignalEvent>, event: SignalEvent | undefined): void {
    if (!event) return;
    const { at: _at, sessionId: _session, ...identity } = event.data;
    signals.set(`${event.type} ${JSON.stringify(identity)}`, event);
  }
}

type SeenFields = { storeId: string; orgId: string; pageUrl: string; sessionId: string; at: string };

const cspViolation = (observation: CspViolationObservation, seen: SeenFields): SignalEvent => ({
  type: 'CspViolationObserved',
  data: { ...seen, directive: observation.directive, blockedUri: observation.blocked_uri, sourceFile: observation.source_file ?? null },
});

/** An iframe is unexpected when the store lists expected origins and its host matches none (by suffix). */
function unexpectedIframe(observation: IframeObservation, store: StoreDocument, seen: SeenFields): SignalEvent | undefined {
  const expected = store.sdk_config?.expected_iframe_origins ?? [];
  if (expected.length === 0) return undefined;
  const host = iframeHost(observation.origin);
  if (host && expected.some((origin) => host === origin || host.endsWith(`.${origin}`))) return undefined;
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
