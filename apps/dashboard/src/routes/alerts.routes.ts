import { ALERT_NOTE_REFUSALS, ALERT_STATUSES, COMMANDS, type AlertResource, type AlertStatus, type UpdateAlertRequest } from '@pss/contracts';
import { findAlert, listAlerts, type AlertFilter } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { ownStore } from '@pss/store-reads';
import { allows, REQUIRES_MEMBER, requiresStoreOwner } from '../access/roles';
import type { DashboardAnswer, DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { alertListPage, alertPage, alertPath, type AlertView } from '../pages/alerts';
import { fieldRefusalText } from '../i18n/refusals';
import { errorPage } from '../pages/layout';
import { storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';

/** The list's filter from the query: GET /alerts' parameters, blanks meaning "any". */
const filterOf = (query: Record<string, string>): AlertFilter =>
  Object.fromEntries((['store_id', 'status', 'severity', 'type'] as const).filter((field) => query[field]).map((field) => [field, query[field]]));

const refusedFields = (error: unknown): string[] | undefined =>
  error instanceof DomainError && error.code === 'validation_error' ? (error.details ?? []).map((detail) => detail.field ?? '') : undefined;

/**
 * Alerts (issue 32): every member reads them (GET /alerts' filters and cursors); the store's owner or the
 * organization's resolves or reopens one with a note, through the alerts service's own command with the person
 * as actor, so the alert's `resolved_by_label` and the audit log name them.
 */
export function alertsRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;

  async function alertView(request: DashboardRequest): Promise<AlertView | undefined> {
    const alert = await findAlert(readStore, orgOf(request), request.params.id);
    if (!alert) return undefined;
    const stores = await storesOf(readStore, orgOf(request));
    return { alert, store: stores.find((store) => store._id === alert.store_id), acts: allows(request.signedIn!.member.role, requiresStoreOwner(alert.store_id)) };
  }
  const notFound = (request: DashboardRequest): DashboardAnswer => errorPage(request, 404, request.t('error.not-found'));

  return [
    {
      method: 'GET',
      path: '/alerts',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const filter = filterOf(request.query);
        const cursor = request.query.cursor || undefined;
        const stores = await storesOf(readStore, orgOf(request));
        const view = { filter, stores, alerts: [], nextCursor: null, paged: cursor !== undefined, refused: [] };
        try {
          if (filter.store_id) await ownStore(readStore, orgOf(request), filter.store_id);
          const page = await listAlerts(readStore, orgOf(request), filter, { cursor });
          return { page: alertListPage(request, { ...view, alerts: page.alerts, nextCursor: page.next_cursor }) };
        } catch (error) {
          if (error instanceof DomainError && error.code === 'not_found') return { status: 404, page: alertListPage(request, { ...view, refused: ['store_id'] }) };
          const refused = refusedFields(error);
          if (!refused) throw error;
          if (refused.includes('cursor')) return { status: 400, page: alertListPage(request, { ...view, staleCursor: true }) };
          return { status: 400, page: alertListPage(request, { ...view, refused }) };
        }
      },
    },
    {
      method: 'GET',
      path: '/alerts/:id',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const view = await alertView(request);
        return view ? { page: alertPage(request, view) } : notFound(request);
      },
    },
    {
      method: 'POST',
      path: '/alerts/:id',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const view = await alertView(request);
        if (!view) return notFound(request);
        if (!view.acts) return errorPage(request, 403, request.t('error.forbidden'));
        const { member } = request.signedIn!;
        const status = request.form.status as AlertStatus;
        // The form's hidden field, so only an edited form gets here: the API's words for it.
        if (!ALERT_STATUSES.includes(status)) return { status: 400, page: alertPage(request, { ...view, note: request.form.note, refusal: 'status must be resolved or open' }) };
        const command: UpdateAlertRequest = { orgId: orgOf(request), alertId: view.alert._id, input: { status, note: request.form.note ?? null } };
        try {
          // The person rides in the command's metadata: the alert's resolved_by_label and the audit log name them.
          await bus.request<AlertResource>(COMMANDS.alertUpdate, command, { actor: actorOf(member) });
        } catch (error) {
          // The command's own validation (the note's length), in the person's language, beside the note that was typed.
          if (!refusedFields(error)) throw error;
          const detail = (error as DomainError).details?.[0];
          return { status: 400, page: alertPage(request, { ...view, note: request.form.note, refusal: detail ? fieldRefusalText(request.t, detail, ALERT_NOTE_REFUSALS) : (error as DomainError).message }) };
        }
        session.flash(status === 'resolved' ? 'alerts.resolved' : 'alerts.reopened');
        return { redirect: alertPath(view.alert._id) };
      },
    },
  ];
}
