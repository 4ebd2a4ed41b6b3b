import { AUDIT_LOG_OWNERS, auditLogCollection, type AuditDetails, type AuditEntryDocument, type AuditTarget } from '@pss/contracts';
import { CSV_BOM, csvLine, decodeCursor, encodeCursor, validationError, type ErrorDetail } from '@pss/kernel';
import type { Filter, ReadStore } from '@pss/read-store';

export const AUDIT_LOG_PAGE_SIZE = 50;
export const AUDIT_LOG_PAGE_MAX = 200;

export interface AuditLogFilter {
  /** Exactly this actor: `user:<e-mail>`, `api:<token prefix>`, `admin-cli`, `system`. */
  actor?: string;
  /** An action (`token.revoked`), or a target type (`token`) for all of its actions. */
  action?: string;
  /** ISO 8601 instants: from (inclusive) to (exclusive). The dashboard turns the store's dates into instants. */
  from?: string;
  to?: string;
}

export interface AuditLogPageRequest {
  /** `next_cursor` of the page before. */
  cursor?: string;
  limit?: number;
}

export interface AuditLogEntry {
  id: string;
  time: string;
  actor: string;
  action: string;
  target: AuditTarget;
  details: AuditDetails;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  next_cursor: string | null;
}

/**
 * One page of the organization's audit log, newest first (`time`, then id), across every service's part of it.
 * Keyset paging: entries recorded while someone pages never shift the pages not read yet.
 */
export async function auditLog(readStore: ReadStore, orgId: string, filter: AuditLogFilter, page: AuditLogPageRequest = {}): Promise<AuditLogPage> {
  const limit = page.limit ?? AUDIT_LOG_PAGE_SIZE;
  const query = auditQuery(orgId, filter, limit);
  const after = page.cursor ? decodeCursor(page.cursor, 'time') : undefined;
  const scoped: Filter = after ? { $and: [query, { $or: [{ time: { $lt: after[0] } }, { time: after[0], _id: { $lt: after[1] } }] }] } : query;
  // Each part in the log's order, one more than a page each: the page is the newest of their union.
  const parts = await Promise.all(
    AUDIT_LOG_OWNERS.map((owner) => readStore.collection<AuditEntryDocument>(auditLogCollection(owner)).find(scoped, { sort: { time: -1, _id: -1 }, limit: limit + 1 })),
  );
  const newest = parts.flat().sort(newestFirst);
  const entries = newest.slice(0, limit);
  const last = entries[entries.length - 1];
  return { entries: entries.map(entryOf), next_cursor: newest.length > limit && last ? encodeCursor([last.time, last._id]) : null };
}

export const AUDIT_LOG_CSV_HEADER = ['time_utc', 'actor', 'action', 'target_type', 'target_id', 'target_label', 'details'];

/**
 * The filtered log as CSV, newest first, in chunks of a page each (a long log is never held whole): the same
 * writer as reports' tables (BOM, CRLF, formula cells neutralized: justifications and labels come from people).
 * `details` is the entry's details as JSON.
 */
export async function* auditLogCsv(readStore: ReadStore, orgId: string, filter: AuditLogFilter): AsyncGenerator<string> {
  yield `${CSV_BOM}${csvLine(AUDIT_LOG_CSV_HEADER)}`;
  let cursor: string | undefined;
  do {
    const page = await auditLog(readStore, orgId, filter, { cursor, limit: AUDIT_LOG_PAGE_MAX });
    yield page.entries.map(({ time, actor, action, target, details }) => csvLine([time, actor, action, target.type, target.id, target.label, JSON.stringify(details)])).join('');
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

function auditQuery(orgId: string, filter: AuditLogFilter, limit: number): Filter {
  const problems: ErrorDetail[] = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_LOG_PAGE_MAX) problems.push({ field: 'limit', message: `limit must be an integer from 1 to ${AUDIT_LOG_PAGE_MAX}` });
  const from = instant(filter.from, 'from', problems);
  const to = instant(filter.to, 'to', problems);
  if (from && to && from >= to) problems.push({ field: 'to', message: 'to must be after from' });
  if (problems.length) throw validationError(problems);
  const time = { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) };
  return {
    org_id: orgId,
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.action ? (filter.action.includes('.') ? { action: filter.action } : { 'target.type': filter.action }) : {}),
    ...(from || to ? { time } : {}),
  };
}

/** An ISO 8601 instant as entries write theirs (UTC, milliseconds), so that strings compare as times. */
function instant(value: string | undefined, field: string, problems: ErrorDetail[]): string | undefined {
  if (value === undefined || value === '') return undefined;
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) {
    problems.push({ field, message: `${field} must be an ISO 8601 date and time` });
    return undefined;
  }
  return new Date(time).toISOString();
}

const newestFirst = (a: AuditEntryDocument, b: AuditEntryDocument): number => (a.time === b.time ? compare(b._id, a._id) : compare(b.time, a.time));
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const entryOf = ({ _id, time, actor, action, target, details }: AuditEntryDocument): AuditLogEntry => ({ id: _id, time, actor, action, target, details });
