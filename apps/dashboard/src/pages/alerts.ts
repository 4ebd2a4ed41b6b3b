import { ALERT_NOTE_MAX, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES, type AlertDocument } from '@pss/contracts';
import type { AlertFilter } from '@pss/dashboard-reads';
import { alertSentences } from '../alerts/alert-sentences';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { showTime } from '../i18n/dates';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { storeZone, type StoreChoice } from './email-channels';
import { cursorPages } from './cursor-pages';
import { csrfField, layout, time } from './layout';

export const ALERTS_PAGE = dashboardPath('/alerts');
export const alertPath = (id: string): string => dashboardPath(`/alerts/${encodeURIComponent(id)}`);

export interface AlertListView {
  filter: AlertFilter;
  stores: StoreChoice[];
  alerts: AlertDocument[];
  nextCursor: string | null;
  paged: boolean;
  /** The filter's fields the API's lists refused; the page says which. */
  refused: string[];
  staleCursor?: boolean;
}

const FILTER_FIELDS = ['store_id', 'status', 'severity', 'type'] as const;

/** The list's address with its filter (and a cursor), so a page link keeps what the reader chose. */
export function alertsQuery(filter: AlertFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) if (filter[field]) params.set(field, filter[field]!);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `?${query}` : '';
}

const sentencesOf = (request: DashboardRequest, alert: AlertDocument, timeZone: string | undefined): string[] =>
  alertSentences(alert, request.t, (iso) => showTime(iso, request.locale, timeZone).local);

function filterForm(request: DashboardRequest, view: AlertListView): Html {
  const { t } = request;
  const select = (field: (typeof FILTER_FIELDS)[number], label: MessageKey, choices: Array<{ value: string; text: string }>) =>
    html`<label for="filter-${field}">${t(label)}</label>
<select id="filter-${field}" name="${field}"${view.refused.includes(field) ? html` aria-invalid="true"` : ''}>
<option value="">${t('alerts.filter.any')}</option>
${choices.map(({ value, text }) => html`<option value="${value}"${view.filter[field] === value ? html` selected` : ''}>${text}</option>`)}
</select>`;
  return html`<form method="get" action="${ALERTS_PAGE}" role="search" aria-labelledby="alerts-filter-title" class="filters">
<h2 id="alerts-filter-title">${t('alerts.filter')}</h2>
${select('store_id', 'alerts.filter.store', view.stores.map((store) => ({ value: store._id, text: `${store.name} (${store.domain})` })))}
${select('status', 'alerts.filter.status', ALERT_STATUSES.map((value) => ({ value, text: t(`alerts.status.${value}` as MessageKey) })))}
${select('severity', 'alerts.filter.severity', ALERT_SEVERITIES.map((value) => ({ value, text: t(`alerts.severity.${value}` as MessageKey) })))}
${select('type', 'alerts.filter.type', ALERT_TYPES.map((value) => ({ value, text: t(`alerts.type.${value}` as MessageKey) })))}
<p><button type="submit">${t('alerts.filter.apply')}</button> <a href="${ALERTS_PAGE}">${t('alerts.filter.clear')}</a></p>
</form>`;
}

const kind = (request: DashboardRequest, alert: AlertDocument): Html =>
  html`${request.t(`alerts.type.${alert.type}` as MessageKey)} <span class="severity severity-${alert.severity}">${request.t(`alerts.severity.${alert.severity}` as MessageKey)}</span>`;

function alertTable(request: DashboardRequest, view: AlertListView): Html {
  const { t } = request;
  const rows = view.alerts.map((alert) => {
    const zone = storeZone(view.stores, alert.store_id);
    const when = showTime(alert.created_at, request.locale, zone).local;
    return html`<tr>
<td>${time(request, alert.created_at, zone)}</td>
<td><a href="${alertPath(alert._id)}" aria-label="${t('alerts.open.named', { type: t(`alerts.type.${alert.type}` as MessageKey), severity: t(`alerts.severity.${alert.severity}` as MessageKey), when })}">${kind(request, alert)}</a></td>
<td>${sentencesOf(request, alert, zone).map((sentence) => html`<p class="sentence">${sentence}</p>`)}</td>
<td>${t(`alerts.status.${alert.status}` as MessageKey)}</td>
</tr>`;
  });
  const headings = (['alerts.column.when', 'alerts.column.alert', 'alerts.column.what', 'alerts.column.status'] as const).map((key) => html`<th scope="col">${t(key)}</th>`);
  return html`<table id="alerts"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The organization's alerts, newest first, a page at a time with the API's cursors, each said in sentences. */
export function alertListPage(request: DashboardRequest, view: AlertListView): Html {
  const { t } = request;
  const links = {
    first: view.paged ? `${ALERTS_PAGE}${alertsQuery(view.filter)}` : null,
    next: view.nextCursor ? `${ALERTS_PAGE}${alertsQuery(view.filter, view.nextCursor)}` : null,
  };
  const problem = view.refused.length
    ? t('alerts.error.filter', { fields: view.refused.join(', ') })
    : view.staleCursor
      ? t('alerts.error.cursor')
      : undefined;
  return layout(
    request,
    t('alerts.title'),
    html`<p>${t('alerts.intro')}</p>
${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
${filterForm(request, view)}
${view.alerts.length ? alertTable(request, view) : html`<p>${t('alerts.none')}</p>`}
${cursorPages(request, links, { first: 'alerts.first', next: 'alerts.next', label: 'alerts.pages' })}`,
  );
}

export interface AlertView {
  alert: AlertDocument;
  store: StoreChoice | undefined;
  /** Whether the person may resolve or reopen it (the store's or the organization's owner). */
  acts: boolean;
  /** The note typed, when the service refused it; and its words. */
  note?: string;
  refusal?: string;
}

/** One alert: its sentences, its occurrences, who resolved it, and the form that resolves or reopens it with a note. */
export function alertPage(request: DashboardRequest, view: AlertView): Html {
  const { t } = request;
  const { alert } = view;
  const zone = view.store?.timezone;
  const next = alert.status === 'open' ? 'resolved' : 'open';
  const form = view.acts
    ? html`<form method="post" action="${alertPath(alert._id)}" novalidate>
${csrfField(request)}
<input type="hidden" name="status" value="${next}">
<label for="note">${t('alerts.note')}</label>
<p class="hint" id="note-hint">${t('alerts.note.hint', { max: ALERT_NOTE_MAX })}</p>
${view.refusal ? html`<p class="error" id="note-error">${t('alerts.error.refused', { message: view.refusal })}</p>` : null}
<textarea id="note" name="note" rows="4" aria-describedby="note-hint${view.refusal ? ' note-error' : ''}"${view.refusal ? html` aria-invalid="true"` : ''}>${view.note ?? alert.note ?? ''}</textarea>
<p><button type="submit">${t(next === 'resolved' ? 'alerts.resolve' : 'alerts.reopen')}</button></p>
</form>`
    : html`<p>${t('alerts.viewer')}</p>`;
  return layout(
    request,
    t(`alerts.type.${alert.type}` as MessageKey),
    html`${view.refusal ? html`<p class="error" role="alert">${t('alerts.error.refused', { message: view.refusal })}</p>` : null}
<p>${kind(request, alert)} · ${t(`alerts.status.${alert.status}` as MessageKey)}${view.store ? html` · ${view.store.name} (${view.store.domain})` : null}</p>
<div class="sentences">${sentencesOf(request, alert, zone).map((sentence) => html`<p class="sentence">${sentence}</p>`)}</div>
<p>${t('alerts.occurrences', { count: alert.occurrences, last: showTime(alert.last_seen_at, request.locale, zone).local })}</p>
${alert.status === 'resolved' && alert.resolved_at ? html`<p>${t('alerts.resolved-by', { by: alert.resolved_by_label ?? '—', at: showTime(alert.resolved_at, request.locale, zone).local })}</p>` : null}
${alert.note && !view.acts ? html`<p><strong>${t('alerts.note')}:</strong> ${alert.note}</p>` : null}
${form}
<p><a href="${ALERTS_PAGE}">${t('alerts.back')}</a></p>`,
  );
}
