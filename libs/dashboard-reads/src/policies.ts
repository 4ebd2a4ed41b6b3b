import { POLICIES, RULES, type PolicyDocument, type RuleDocument } from '@pss/contracts';
import { nextCursor, pageQuery, type Document, type Filter, type PageOrder, type ReadStore } from '@pss/read-store';

export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** GET /policies' order (evaluation order) and GET /rules' (newest first): the API's cursors and the dashboard's are one. */
const EVALUATION_ORDER: PageOrder = { field: 'priority', direction: 1 };
const NEWEST_FIRST: PageOrder = { field: 'created_at', direction: -1 };

async function page<T extends Document>(readStore: ReadStore, collection: string, filter: Filter, order: PageOrder, cursor: string | undefined): Promise<ListPage<T>> {
  const { query, sort, limit } = pageQuery(filter, order, { cursor });
  const docs = await readStore.collection<T>(collection).find(query, { sort, limit: limit + 1 });
  return { items: docs.slice(0, limit), next_cursor: nextCursor(docs, limit, order) };
}

/**
 * A page of the organization's policies as GET /policies lists them; with a store, the organization's own and
 * that store's. The caller checks the store is the organization's (`ownStore`).
 */
export const listPolicies = (readStore: ReadStore, orgId: string, storeId: string | undefined, cursor?: string): Promise<ListPage<PolicyDocument>> =>
  page(readStore, POLICIES, { org_id: orgId, ...(storeId ? { $or: [{ store_id: null }, { store_id: storeId }] } : {}) }, EVALUATION_ORDER, cursor);

/** GET /rules' filters, by the same names. */
export interface RuleFilter {
  store_id?: string;
  type?: RuleDocument['type'];
  active?: boolean;
}

/** A page of the organization's block and allow rules, newest first, as GET /rules lists them. */
export const listRules = (readStore: ReadStore, orgId: string, filter: RuleFilter, cursor?: string): Promise<ListPage<RuleDocument>> =>
  page(readStore, RULES, { org_id: orgId, ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) }, NEWEST_FIRST, cursor);

/** One policy or rule of the organization; another organization's is as missing as none. */
export const findPolicy = (readStore: ReadStore, orgId: string, id: string): Promise<PolicyDocument | null> => readStore.collection<PolicyDocument>(POLICIES).findOne({ _id: id, org_id: orgId });
export const findRule = (readStore: ReadStore, orgId: string, id: string): Promise<RuleDocument | null> => readStore.collection<RuleDocument>(RULES).findOne({ _id: id, org_id: orgId });
