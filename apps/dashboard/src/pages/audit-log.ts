import type { AuditLogEntry } from '@pss/dashboard-reads';
import { auditLogQueryString, type AuditLogSearch, type DateField } from '../audit-log/audit-log-filter';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { cursorPages } from './cursor-pages';
import { layout, time } from './layout';

export const AUDIT_LOG = dashboardPath('/audit-log');
export const AUDIT_LOG_CSV = dashboardPath('/audit-log.csv');

export interface AuditLogView {
  search: AuditLogSearch;
  /** The zone the filter's days are in and the times are shown in. */
  timeZone: string;
  entries: AuditLogEntry[];
  /** Set on every page but the first: the way back to it. */
  paged: boolean;
  nextCursor: string | null;
  invalid: DateField[];
  /** The cursor was not one this page made (or its filter changed): the reader starts over. */
  staleCursor?: boolean;
}

function filterForm(request: DashboardRequest, view: AuditLogView): Html {
  const { t } = request;
  const { search, invalid } = view;
  const dayField = (field: DateField, label: MessageKey) => {
    const wrong = invalid.includes(field);
    return html`<label for="${field}">${t(label)}</label>
${wrong ? html`<p class="error" id="${field}-error">${t(`audit.error.${field}` as MessageKey)}</p>` : null}
<input type="date" id="${field}" name="${field}" value="${search[field]}" aria-describedby="days-hint${wrong ? ` ${field}-error` : ''}"${wrong ? html` aria-invalid="true"` : ''}>`;
  };
  return html`<form method="get" action="${AUDIT_LOG}" role="search" aria-labelledby="filter-title">
<h2 id="filter-title">${t('audit.filter')}</h2>
<label for="actor">${t('audit.actor')}</label>
<p class="hint" id="actor-hint">${t('audit.actor.hint')}</p>
<input type="text" id="actor" name="actor" value="${search.actor}" autocomplete="off" aria-describedby="actor-hint">
<label for="action">${t('audit.action')}</label>
<p class="hint" id="action-hint">${t('audit.action.hint')}</p>
<input type="text" id="action" name="action" value="${search.action}" autocomplete="off" aria-describedby="action-hint">
<p class="hint" id="days-hint">${t('audit.days.hint', { zone: view.timeZone })}</p>
${dayField('from', 'audit.from')}
${dayField('to', 'audit.to')}
<p><button type="submit">${t('audit.apply')}</button> <a href="${AUDIT_LOG}">${t('audit.clear')}</a></p>
</form>`;
}

/** A change's details as the log keeps them: the fields a change touched, a decision's justification. */
const details = (entry: AuditLogEntry): Html =>
  html`${Object.entries(entry.details).map(([key, value], index) => html`${index ? html`<br>` : ''}<span class="detail">${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}</span>`)}`;

function entryTable(request: DashboardRequest, view: AuditLogView): Html {
  const { t } = request;
  const rows = view.entries.map(
    (entry) => html`<tr>
<td>${time(request, entry.time, view.timeZone)}</td>
<td><code>${entry.actor}</code></td>
<td><code>${entry.action}</code></td>
<td>${entry.target.type}: ${entry.target.label ?? entry.target.id}</td>
<td>${details(entry)}</td>
</tr>`,
  );
  const headings = (['audit.time', 'audit.actor', 'audit.action', 'audit.target', 'audit.details'] as const).map((key) => html`<th scope="col">${t(key)}</th>`);
  return html`<table id="audit-log"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The log, newest first, a page at a time (keyset cursor), with the filter, the export and the links between pages. */
export function auditLogPage(request: DashboardRequest, view: AuditLogView): Html {
  const { t } = request;
  const links = {
    first: view.paged ? `${AUDIT_LOG}${auditLogQueryString(view.search)}` : null,
    next: view.nextCursor ? `${AUDIT_LOG}${auditLogQueryString(view.search, view.nextCursor)}` : null,
  };
  const problem = view.invalid.length ? 'audit.error.filter' : view.staleCursor ? 'audit.error.cursor' : undefined;
  return layout(
    request,
    t('audit.title'),
    html`<p>${t('audit.intro')}</p>
${problem ? html`<p class="error" role="alert">${t(problem)}</p>` : null}
${filterForm(request, view)}
${view.invalid.length ? null : html`<p><a href="${AUDIT_LOG_CSV}${auditLogQueryString(view.search)}" download>${t('audit.csv')}</a></p>`}
${view.entries.length ? entryTable(request, view) : html`<p>${t('audit.none')}</p>`}
${cursorPages(request, links, { first: 'audit.first', next: 'audit.next', label: 'audit.pages' })}`,
  );
}
