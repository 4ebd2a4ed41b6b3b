import type { RuleTarget, RuleType } from '../read-models/rule';
import type { HandDecisionMethod, ScriptStatus } from '../read-models/script';
import type { Observation } from '../sdk/observations';
import type { FieldRefusal } from './field-refusals';

/** What the script decision commands refuse of the person's input, by reason (the API's words). */
export const SCRIPT_DECISION_REFUSALS: readonly FieldRefusal[] = [
  { field: 'justification', reason: 'justification_required', message: 'justification is required: say why this script is needed on the payment page' },
];

export const SCRIPT_COMMANDS = {
  sdkIngest: 'inventory.sdk.ingest',
  sdkRecordSightings: 'inventory.sdk.record-sightings',
  scriptAuthorize: 'inventory.script.authorize',
  scriptBlock: 'inventory.script.block',
} as const;

/**
 * What the gateway forwards of an SDK batch: only what its known-script index cannot settle (new scripts, new
 * hashes, changed headers, signals). The batch itself and the sightings of known scripts are counted at the edge
 * and reach inventory in `sdkRecordSightings`.
 */
export interface SdkIngestCommand {
  storeId: string;
  pageUrl: string;
  sessionId: string;
  sdkVersion: string;
  observations: Observation[];
  /**
   * The sending client's address as a keyed hash (never the address itself), so sightings can be told apart by
   * where they came from; absent from a gateway older than this field.
   */
  client?: string;
}

/**
 * What became of each script observation forwarded, in the order sent: `known` (inventory already had this
 * hash: the gateway counts it as a sighting), `recorded` (a new script or new content, now an event) or `deferred`
 * (beyond the store's budget of new scripts: not recorded, a later page view reports it again). `hash` is the
 * script's current hash after the batch, which the gateway remembers.
 */
export interface IngestedScript {
  script_id: string;
  hash: string | null;
  outcome: 'known' | 'recorded' | 'deferred';
  /** The script holds a mismatch: every sighting of it counts (issue 29), so the gateway must not settle any. */
  held?: true;
}

/**
 * Inventory's answer to `sdkIngest`. `retry_after_seconds` says the store's budget of new scripts ran out: the
 * new scripts it could afford are recorded, the others are answered `deferred` (the gateway rejects them in its
 * 202, and a later page view reports them again), and everything else in the batch is recorded.
 */
export interface SdkIngestReply {
  accepted: number;
  retry_after_seconds?: number;
  /**
   * Whose budget of new scripts ran out: the client address's share (the gateway then defers that address's
   * unseen scripts without asking) or the store's.
   */
  spent_share?: 'address' | 'store';
  scripts: IngestedScript[];
  /**
   * Positions in `observations` of signals (anything but a script) not recorded: new to the store, beyond its
   * budget of new signals, which covers one again after `signals_retry_after_seconds`.
   */
  deferred_signals?: number[];
  signals_retry_after_seconds?: number;
  signals_spent_share?: 'address' | 'store';
  /** The headers observation not recorded (its position in `observations`) and why: a new path past the store's cap of them. */
  refused_headers?: { position: number; reason: string };
}

/** One known script's sightings within a flush window. */
export interface ScriptSightings {
  scriptId: string;
  sightings: number;
  /** Distinct sessions within the window, counted up to a cap (then "at least this many"). */
  sessions: number;
  lastSeenAt: string;
}

/** One store's SDK activity within a flush window: what `SightingsFlushed` records. */
export interface StoreSightings {
  storeId: string;
  orgId: string;
  /**
   * The window's own id, drawn once by the gateway and sent again with it on every retry: inventory records a
   * window once whatever the retries and redeliveries (absent from an edge older than this field).
   */
  windowId?: string;
  firstEventAt: string;
  lastEventAt: string;
  batches: number;
  observations: number;
  scripts: ScriptSightings[];
  /** Batches by page path, for the busiest paths: page views only (absent from an edge older than this field). */
  pages?: PageSightings[];
  /**
   * What of the window looked like page views (docs/decisions.md, issue 29): only these are evidence that the
   * store is monitored. Absent from an edge older than this field, which counted every batch as one.
   */
  pageViews?: PageViewSightings;
}

/**
 * The page-view batches of a window: a session's batch with script observations. Sessions and clients (keyed
 * hashes of addresses) are distinct counts, up to a cap each.
 */
export interface PageViewSightings {
  batches: number;
  sessions: number;
  clients: number;
  /** Null when the window had none. */
  firstAt: string | null;
  lastAt: string | null;
}

/** The batches one page path sent within a flush window. */
export interface PageSightings {
  path: string;
  batches: number;
}

/** `sdkRecordSightings`: the windows the gateway counted, recorded by inventory as one event per store. */
export interface SdkRecordSightingsCommand {
  windows: StoreSightings[];
}

/** The stores whose window could not be recorded (the gateway keeps those for its next flush). */
export interface SdkRecordSightingsReply {
  failed_store_ids: string[];
}

export const RULE_COMMANDS = {
  ruleCreate: 'inventory.rule.create',
  ruleUpdate: 'inventory.rule.update',
  ruleDelete: 'inventory.rule.delete',
} as const;

/** The POST /rules body, without `org_id` (the envelope carries the acting organization): ruleCreate's input. */
export interface CreateRuleInput {
  store_id: string;
  type: RuleType;
  target: RuleTarget;
  value: string;
  label?: string;
}

/** What ruleUpdate changes of a rule: its label, and whether it acts. */
export interface RuleChanges {
  label?: string;
  active?: boolean;
}

/**
 * What `POST /scripts/{id}/block` blocks an external script by: `domain` (the spec's default: its host and the
 * host's subdomains) or `url` (this script alone, with any query).
 */
export const BLOCK_BY = ['domain', 'url'] as const;
export type BlockBy = (typeof BLOCK_BY)[number];

/** Another script of the store that a block rule covers. */
export interface ReachedScript {
  id: string;
  src: string;
  status: ScriptStatus;
}

/**
 * What the block's answer adds to the Script: of the store's other scripts the new rule covers, those the SDK
 * will stop (`also_blocks`) and those that keep running (`spared`: authorized, or let through by an allow rule).
 * Both empty for a rule by URL or by hash, which covers this script alone.
 */
export interface BlockReach {
  also_blocks: ReachedScript[];
  spared: ReachedScript[];
}

/**
 * What a script or rule command carries besides its input: on which organization's behalf. Who acts rides in the
 * command metadata (`Bus.request(…, { actor })`), as for every command.
 */
export interface InventoryCommandEnvelope<Input = unknown> {
  orgId: string;
  id?: string;
  input: Input;
}

/**
 * A script's authorize or block command: the envelope, and how the person decided (`authorization_method`), one
 * of HAND_DECISIONS: the gateway leaves it out (`api`), the dashboard says `manual`.
 */
export interface ScriptDecisionEnvelope<Input = unknown> extends InventoryCommandEnvelope<Input> {
  method?: HandDecisionMethod;
}
