import {
  INTEGRITY_STATUSES,
  globToRegExp,
  PAYMENT_PAGES,
  POLICIES,
  RULES,
  SCRIPT_HISTORY,
  SCRIPT_STATUSES,
  SCRIPT_TYPES,
  SCRIPTS,
  scriptUrl,
  STORES,
  type PaymentPageDocument,
  type PolicyDocument,
  type RuleDocument,
  type ScriptDocument,
  type ScriptHistoryDocument,
  type StoreDocument,
} from '@pss/contracts';
import { CSV_BOM, csvLine, decodeCursor, encodeCursor, validationError, type ErrorDetail } from '@pss/kernel';
import type { Filter, ReadStore } from '@pss/read-store';

/** GET /scripts's page sizes: the dashboard pages the inventory as the API does, with the same cursors. */
export const SCRIPT_PAGE_SIZE = 50;
export const SCRIPT_PAGE_MAX = 100;
/** Authorizations ending within this many days need a decision (issue 32): renew or let them lapse. */
export const EXPIRING_WITHIN_DAYS = 14;

/** GET /scripts's filters, and the payment page (one of the store's) a script was reported on. */
export interface ScriptFilter {
  store_id?: string;
  status?: string;
  type?: string;
  integrity_status?: string;
  category?: string;
  payment_page_id?: string;
}

export interface ScriptPageRequest {
  cursor?: string;
  limit?: number;
}

export interface ScriptPage {
  scripts: ScriptDocument[];
  next_cursor: string | null;
}

/** Why a script is in the review inbox, the first that applies. */
export type DecisionNeeded = 'malicious' | 'suspicious' | 'integrity' | 'needs_review' | 'expiring';

const UNDECIDED = ['needs_review', 'suspicious', 'malicious'];

/** Why `script` needs a decision at `now`, or null: the inbox's query (`reviewInbox`) in one script's terms. */
export function decisionNeeded(script: Pick<ScriptDocument, 'status' | 'integrity_status' | 'expires_at'>, now: Date): DecisionNeeded | null {
  if (script.status === 'malicious' || script.status === 'suspicious') return script.status;
  if (script.integrity_status === 'mismatch') return 'integrity';
  if (script.status === 'needs_review') return 'needs_review';
  if (script.status === 'authorized' && script.expires_at !== null && script.expires_at <= expiringBy(now)) return 'expiring';
  return null;
}

const expiringBy = (now: Date): string => new Date(now.getTime() + EXPIRING_WITHIN_DAYS * 86_400_000).toISOString();

/** One page of the inventory as GET /scripts answers it (newest first; its cursors), the filter checked as it checks it. */
export async function inventoryPage(readStore: ReadStore, orgId: string, filter: ScriptFilter, page: ScriptPageRequest = {}): Promise<ScriptPage> {
  return inventoryPageOf(readStore, await inventoryQuery(readStore, orgId, filter), page);
}

/**
 * What needs a person's decision (issue 32), newest first, a page at a time: scripts to review, suspicious or
 * malicious ones, integrity mismatches (the script's own `integrity_status`, which the alerts are raised from) and
 * authorizations ending within EXPIRING_WITHIN_DAYS.
 */
export async function reviewInbox(readStore: ReadStore, orgId: string, storeId: string | undefined, now: Date, page: ScriptPageRequest = {}): Promise<ScriptPage> {
  const query: Filter = {
    org_id: orgId,
    ...(storeId ? { store_id: storeId } : {}),
    $or: [{ status: { $in: UNDECIDED } }, { integrity_status: 'mismatch' }, { status: 'authorized', expires_at: { $ne: null, $lte: expiringBy(now) } }],
  };
  return scriptsPage(readStore, query, page);
}

export const INVENTORY_CSV_HEADER = [
  'id',
  'store_id',
  'src',
  'type',
  'category',
  'vendor_id',
  'status',
  'integrity_status',
  'current_hash',
  'sri_hash',
  'size_bytes',
  'first_seen_at',
  'last_seen_at',
  'sightings',
  'sessions_count',
  'authorized_by',
  'justification',
  'expires_at',
] as const satisfies ReadonlyArray<keyof ScriptDocument | 'id'>;

/**
 * The filtered inventory as CSV, page after page of SCRIPT_PAGE_MAX (a big store is never held whole): the
 * writer of reports' tables (BOM, CRLF, formula cells neutralized: a script's URL and a justification are anyone's).
 */
export async function inventoryCsv(readStore: ReadStore, orgId: string, filter: ScriptFilter): Promise<AsyncGenerator<string>> {
  // Checked before the first byte: a refused filter is an answer of its own, not a broken download.
  return csvRows(readStore, await inventoryQuery(readStore, orgId, filter));
}

async function* csvRows(readStore: ReadStore, query: InventoryQuery): AsyncGenerator<string> {
  yield `${CSV_BOM}${csvLine([...INVENTORY_CSV_HEADER])}`;
  let cursor: string | undefined;
  do {
    const page = await inventoryPageOf(readStore, query, { cursor, limit: SCRIPT_PAGE_MAX });
    yield page.scripts.map((script) => csvLine(INVENTORY_CSV_HEADER.map((column) => (column === 'id' ? script._id : script[column])))).join('');
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

/** Everything the inventory knows of one script of the organization; null for another organization's or none. */
export interface ScriptDetails {
  script: ScriptDocument;
  store: StoreDocument;
  /** Absent for a script recorded before the history was kept. */
  history: ScriptHistoryDocument | null;
  /** The policies that decided or recommended (by id), as they are now: their names. */
  policies: Map<string, PolicyDocument>;
  /** The store's active block rules that cover the script. */
  blockedBy: RuleDocument[];
}

export async function scriptDetails(readStore: ReadStore, orgId: string, scriptId: string): Promise<ScriptDetails | null> {
  const script = await readStore.collection<ScriptDocument>(SCRIPTS).findOne({ _id: scriptId, org_id: orgId });
  if (!script) return null;
  const [store, history, rules] = await Promise.all([
    readStore.collection<StoreDocument>(STORES).findOne({ _id: script.store_id, org_id: orgId }),
    readStore.collection<ScriptHistoryDocument>(SCRIPT_HISTORY).findOne({ _id: scriptId, org_id: orgId }),
    readStore.collection<RuleDocument>(RULES).find({ org_id: orgId, store_id: script.store_id, type: 'block', active: true }),
  ]);
  if (!store) return null;
  const policyIds = [script.policy_id, script.recommendation?.policy_id, ...(history?.recommendations ?? []).map((made) => made.policy_id)].filter((id): id is string => Boolean(id));
  const policies = policyIds.length ? await readStore.collection<PolicyDocument>(POLICIES).find({ org_id: orgId, _id: { $in: [...new Set(policyIds)] } }) : [];
  return { script, store, history, policies: new Map(policies.map((policy) => [policy._id, policy])), blockedBy: rules.filter((rule) => blocks(rule, script)) };
}

/** Which of these policies (of the organization) have a justification template: a decision's starting text comes from those. */
export async function templatedPolicies(readStore: ReadStore, orgId: string, policyIds: string[]): Promise<Set<string>> {
  if (!policyIds.length) return new Set();
  const policies = await readStore.collection<PolicyDocument>(POLICIES).find({ org_id: orgId, _id: { $in: policyIds } });
  return new Set(policies.filter((policy) => policy.justification_template).map((policy) => policy._id));
}

/** The organization's scripts among `ids`, by id: what a decision on several is checked against. */
export async function scriptsByIds(readStore: ReadStore, orgId: string, ids: string[]): Promise<Map<string, ScriptDocument>> {
  const scripts = await readStore.collection<ScriptDocument>(SCRIPTS).find({ org_id: orgId, _id: { $in: ids } });
  return new Map(scripts.map((script) => [script._id, script]));
}

/** A store's payment pages, for the inventory's per-page filter. */
export const storePaymentPages = (readStore: ReadStore, orgId: string, storeId: string): Promise<PaymentPageDocument[]> =>
  readStore.collection<PaymentPageDocument>(PAYMENT_PAGES).find({ org_id: orgId, store_id: storeId }, { sort: { _id: 1 } });

/** Whether a block rule covers the script as the SDK matches them: a hash, a URL without query, a host and its subdomains. */
export function blocks(rule: Pick<RuleDocument, 'target' | 'value'>, script: Pick<ScriptDocument, 'inline' | 'src' | 'host' | 'current_hash'>): boolean {
  if (script.inline) return rule.target === 'hash' && rule.value === script.current_hash;
  if (rule.target === 'url') return rule.value === scriptUrl(script.src);
  const host = script.host ?? '';
  return rule.target === 'domain' && (host === rule.value.toLowerCase() || host.endsWith(`.${rule.value.toLowerCase()}`));
}

/**
 * The inventory's query: GET /scripts's filter on `scripts`, and, with a payment page chosen, the filter on
 * `script_history` of the scripts reported on it.
 */
interface InventoryQuery {
  scripts: Filter;
  onPage?: Filter;
}

/** GET /scripts's order: newest first (first seen, then id); its cursor names the last row's pair. */
const NEWEST_FIRST = { first_seen_at: -1, _id: -1 } as const;

/** The page of `query` newest first, the cursor being GET /scripts's. */
async function scriptsPage(readStore: ReadStore, query: Filter, page: ScriptPageRequest): Promise<ScriptPage> {
  const limit = pageLimit(page);
  const docs = await readStore.collection<ScriptDocument>(SCRIPTS).find(afterCursor(query, page.cursor), { sort: NEWEST_FIRST, limit: limit + 1 });
  const scripts = docs.slice(0, limit);
  return { scripts, next_cursor: docs.length > limit ? cursorAt(scripts[scripts.length - 1]) : null };
}

/**
 * Chunks of histories (a page's size each) one page of a payment page's inventory reads at most: the scripts on
 * the page are found through the histories' indexed `pages`, a chunk at a time in GET /scripts's order, then
 * narrowed by the other filters. A page the other filters leave short stops after this many chunks with the
 * cursor past them (docs/decisions.md, issue 32): no request reads a whole store's histories.
 */
export const PAGE_HISTORY_CHUNKS = 5;

async function inventoryPageOf(readStore: ReadStore, query: InventoryQuery, page: ScriptPageRequest): Promise<ScriptPage> {
  if (!query.onPage) return scriptsPage(readStore, query.scripts, page);
  const limit = pageLimit(page);
  const histories = readStore.collection<ScriptHistoryDocument>(SCRIPT_HISTORY);
  const found: ScriptDocument[] = [];
  let cursor = page.cursor;
  for (let chunk = 0; chunk < PAGE_HISTORY_CHUNKS; chunk += 1) {
    const onPage = await histories.findFrozen(afterCursor(query.onPage, cursor), { sort: NEWEST_FIRST, limit: limit + 1 });
    const read = onPage.slice(0, limit);
    const ids = read.map((history) => history._id);
    const scripts = ids.length ? await readStore.collection<ScriptDocument>(SCRIPTS).find({ $and: [query.scripts, { _id: { $in: ids } }] }, { sort: NEWEST_FIRST }) : [];
    found.push(...scripts);
    const more = onPage.length > limit;
    if (found.length >= limit) return { scripts: found.slice(0, limit), next_cursor: found.length > limit || more ? cursorAt(found[limit - 1]) : null };
    if (!more) return { scripts: found, next_cursor: null };
    cursor = cursorAt(read[read.length - 1]);
  }
  return { scripts: found, next_cursor: cursor ?? null };
}

const pageLimit = ({ limit = SCRIPT_PAGE_SIZE }: ScriptPageRequest): number => {
  if (!Number.isInteger(limit) || limit < 1 || limit > SCRIPT_PAGE_MAX) throw validationError([{ field: 'limit', message: `limit must be an integer from 1 to ${SCRIPT_PAGE_MAX}` }]);
  return limit;
};

/** `query` past GET /scripts's `cursor`, on `scripts` or on the histories that share its order. */
function afterCursor(query: Filter, cursor: string | undefined): Filter {
  if (!cursor) return query;
  const [firstSeenAt, id] = decodeCursor(cursor, 'first_seen_at');
  return { $and: [query, { $or: [{ first_seen_at: { $lt: firstSeenAt } }, { first_seen_at: firstSeenAt, _id: { $lt: id } }] }] };
}

const cursorAt = (row: { first_seen_at: string; _id: string }): string => encodeCursor([row.first_seen_at, row._id]);

/** GET /scripts's filter (its checks and messages), with the payment page as the histories whose paths it matches. */
async function inventoryQuery(readStore: ReadStore, orgId: string, filter: ScriptFilter): Promise<InventoryQuery> {
  const problems: ErrorDetail[] = [];
  const oneOf = (field: 'status' | 'type' | 'integrity_status', values: readonly string[]) => {
    const value = filter[field];
    if (value !== undefined && !values.includes(value)) problems.push({ field, message: `${field} must be one of the following values: ${values.join(', ')}` });
  };
  oneOf('status', SCRIPT_STATUSES);
  oneOf('type', SCRIPT_TYPES);
  oneOf('integrity_status', INTEGRITY_STATUSES);
  if (filter.category !== undefined && (filter.category === '' || filter.category.length > 64)) problems.push({ field: 'category', message: 'category must not be empty' });
  if (filter.payment_page_id !== undefined && filter.store_id === undefined) problems.push({ field: 'payment_page_id', message: 'payment_page_id needs store_id' });
  if (problems.length) throw validationError(problems);
  const { payment_page_id: pageId, ...apiFilter } = filter;
  const scripts: Filter = { org_id: orgId, ...apiFilter };
  if (pageId === undefined) return { scripts };
  const page = await readStore.collection<PaymentPageDocument>(PAYMENT_PAGES).findOne({ _id: pageId, org_id: orgId, store_id: filter.store_id });
  if (!page) throw validationError([{ field: 'payment_page_id', message: 'payment_page_id is not a payment page of the store' }]);
  return { scripts, onPage: { org_id: orgId, store_id: filter.store_id, pages: { $regex: globToRegExp(page.url_pattern).source } } };
}
