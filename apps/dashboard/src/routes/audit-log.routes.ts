import { auditLog, auditLogCsv } from '@pss/dashboard-reads';
import { CSV_CONTENT_TYPE } from '@pss/report-files';
import { REQUIRES_ORGANIZATION_OWNER } from '../access/roles';
import { auditLogFilterOf, auditLogSearchOf } from '../audit-log/audit-log-filter';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { DEFAULT_TIME_ZONE } from '../i18n/dates';
import { auditLogPage } from '../pages/audit-log';
import type { RouteDeps } from './route-deps';

/** The log's days and times: an organization has no zone of its own, so the dashboard's default (Brazil's). */
const LOG_TIME_ZONE = DEFAULT_TIME_ZONE;

/**
 * The audit log (issue 31): the organization owner's, since it names every person and token and what each did in
 * every store. Filtered by actor, action and days; paged by cursor; exported whole (the filter applied) as CSV.
 */
export function auditLogRoutes({ readStore }: RouteDeps): DashboardRoute[] {
  const searchOf = (request: DashboardRequest) => {
    const search = auditLogSearchOf(request.query);
    return { search, ...auditLogFilterOf(search, LOG_TIME_ZONE) };
  };
  return [
    {
      method: 'GET',
      path: '/audit-log',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request) {
        const { search, filter, invalid } = searchOf(request);
        const view = { search, timeZone: LOG_TIME_ZONE, invalid, entries: [], paged: false, nextCursor: null };
        if (invalid.length) return { status: 400, page: auditLogPage(request, view) };
        const cursor = request.query.cursor || undefined;
        try {
          const page = await auditLog(readStore, request.signedIn!.organization.id, filter, { cursor });
          return { page: auditLogPage(request, { ...view, entries: page.entries, paged: cursor !== undefined, nextCursor: page.next_cursor }) };
        } catch (error) {
          if (!isCursorRefusal(error)) throw error;
          return { status: 400, page: auditLogPage(request, { ...view, paged: true, staleCursor: true }) };
        }
      },
    },
    {
      method: 'GET',
      path: '/audit-log.csv',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request) {
        const { search, filter, invalid } = searchOf(request);
        if (invalid.length) return { status: 400, page: auditLogPage(request, { search, timeZone: LOG_TIME_ZONE, invalid, entries: [], paged: false, nextCursor: null }) };
        const day = request.now.toISOString().slice(0, 10);
        return { download: { filename: `audit-log-${day}.csv`, contentType: CSV_CONTENT_TYPE, chunks: auditLogCsv(readStore, request.signedIn!.organization.id, filter) } };
      },
    },
  ];
}
