import { ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES, ALERTS, type AlertDocument } from '@pss/contracts';
import { validationError, type ErrorDetail } from '@pss/kernel';
import { nextCursor, pageQuery, type PageOrder, type ReadStore } from '@pss/read-store';

/** GET /alerts' filters, by the same names; each optional. */
export interface AlertFilter {
  store_id?: string;
  status?: string;
  severity?: string;
  type?: string;
}

export interface AlertPage {
  alerts: AlertDocument[];
  next_cursor: string | null;
}

/** GET /alerts' order, so the API's cursors and the dashboard's are one. */
const NEWEST_FIRST: PageOrder = { field: 'created_at', direction: -1 };

const CHOICES = { status: ALERT_STATUSES, severity: ALERT_SEVERITIES, type: ALERT_TYPES } as const;

/**
 * A page of the organization's alerts, newest first, with GET /alerts' filters and cursors: a value outside the
 * API's lists is a `validation_error` naming the field. The caller checks that `store_id` is the organization's
 * (`ownStore`, 404 as the API answers); here it only narrows the organization's alerts.
 */
export async function listAlerts(readStore: ReadStore, orgId: string, filter: AlertFilter, page: { cursor?: string; limit?: number } = {}): Promise<AlertPage> {
  const problems: ErrorDetail[] = [];
  for (const field of ['status', 'severity', 'type'] as const) {
    const value = filter[field];
    if (value !== undefined && !(CHOICES[field] as readonly string[]).includes(value)) problems.push({ field, message: `${field} must be one of: ${CHOICES[field].join(', ')}` });
  }
  if (problems.length) throw validationError(problems);
  const scoped = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
  const { query, sort, limit } = pageQuery({ org_id: orgId, ...scoped }, NEWEST_FIRST, page);
  const docs = await readStore.collection<AlertDocument>(ALERTS).find(query, { sort, limit: limit + 1 });
  return { alerts: docs.slice(0, limit), next_cursor: nextCursor(docs, limit, NEWEST_FIRST) };
}

/** One alert of the organization, or undefined (another organization's is as missing as none). */
export const findAlert = (readStore: ReadStore, orgId: string, alertId: string): Promise<AlertDocument | null> =>
  readStore.collection<AlertDocument>(ALERTS).findOne({ _id: alertId, org_id: orgId });
