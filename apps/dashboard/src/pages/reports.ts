import { REPORT_CADENCES, REPORT_LOCALES, type EvidenceChainVerification, type ReportScheduleDocument, type ReportSnapshotDocument } from '@pss/contracts';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import type { ReportFormErrors, ReportFormValues } from '../reports/report-form';
import { cursorPages } from './cursor-pages';
import type { StoreChoice } from './email-channels';
import { csrfField, layout, time } from './layout';

export const REPORTS = dashboardPath('/reports');
export const reportsOf = (storeId: string, cursor?: string): string => `${REPORTS}?store_id=${encodeURIComponent(storeId)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
export const pdfPath = (id: string): string => dashboardPath(`/reports/snapshots/${encodeURIComponent(id)}/pdf`);
export const csvPath = (id: string, table: string): string => dashboardPath(`/reports/snapshots/${encodeURIComponent(id)}/csv/${encodeURIComponent(table)}`);

export interface ReportsView {
  stores: StoreChoice[];
  store?: StoreChoice;
  /** Whether the person may generate and schedule for the store (its owner or the organization's). */
  acts: boolean;
  form: ReportFormValues;
  errors: ReportFormErrors;
  /** Why the service refused, in its words (the plan, a suspended store). */
  refusal?: string;
  snapshots: ReportSnapshotDocument[];
  nextCursor: string | null;
  paged: boolean;
  chain?: EvidenceChainVerification;
  schedule: ReportScheduleDocument | null;
}

const short = (hash: string | null): string => (hash ? `${hash.slice(0, 12)}…` : '—');

function storeForm(request: DashboardRequest, view: ReportsView): Html {
  const { t } = request;
  return html`<form method="get" action="${REPORTS}" aria-labelledby="reports-store-title">
<h2 id="reports-store-title">${t('reports.store')}</h2>
<label for="store_id">${t('reports.store')}</label>
<select id="store_id" name="store_id">${view.stores.map((store) => html`<option value="${store._id}"${store._id === view.store?._id ? html` selected` : ''}>${store.name} (${store.domain})</option>`)}</select>
<p><button type="submit">${t('reports.choose-store')}</button></p>
</form>`;
}

function generateForm(request: DashboardRequest, view: ReportsView, store: StoreChoice): Html {
  const { t } = request;
  const fieldError = (field: keyof ReportFormValues) => (view.errors[field] ? html`<p class="error" id="${field}-error">${view.errors[field]}</p>` : null);
  const marked = (field: keyof ReportFormValues, hint?: string) => {
    const ids = [hint, view.errors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ');
    return html`${view.errors[field] ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;
  };
  return html`<form method="post" action="${REPORTS}" aria-labelledby="generate-title" novalidate>
<h2 id="generate-title">${t('reports.generate.title')}</h2>
${csrfField(request)}
<input type="hidden" name="store_id" value="${store._id}">
<p class="hint" id="period-hint">${t('reports.generate.hint', { zone: store.timezone })}</p>
<label for="period_start">${t('reports.period-start')}</label>
${fieldError('period_start')}
<input type="date" id="period_start" name="period_start" value="${view.form.period_start}"${marked('period_start', 'period-hint')}>
<label for="period_end">${t('reports.period-end')}</label>
${fieldError('period_end')}
<input type="date" id="period_end" name="period_end" value="${view.form.period_end}"${marked('period_end', 'period-hint')}>
<label for="locale">${t('reports.locale')}</label>
${fieldError('locale')}
<select id="locale" name="locale"${marked('locale')}>${REPORT_LOCALES.map((locale) => html`<option value="${locale}"${view.form.locale === locale ? html` selected` : ''}>${t(`language.${locale}` as MessageKey)}</option>`)}</select>
<p><button type="submit">${t('reports.generate')}</button></p>
</form>`;
}

function chainPanel(request: DashboardRequest, chain: EvidenceChainVerification): Html {
  const { t } = request;
  const summary = chain.ok ? t('reports.chain.ok', { count: chain.snapshots, expired: chain.expired }) : t('reports.chain.broken', { count: chain.breaks.length });
  return html`<section aria-labelledby="chain-title">
<h2 id="chain-title">${t('reports.chain.title')}</h2>
<p id="chain-result" class="${chain.ok ? 'notice' : 'error'}">${summary}</p>
${chain.head_sha256 ? html`<p>${t('reports.chain.head')} <code class="address">${chain.head_sha256}</code></p>` : null}
${chain.breaks.length ? html`<ul>${chain.breaks.map((found) => html`<li>${t('reports.chain.break', { sequence: found.sequence })} ${found.problem}</li>`)}</ul>` : null}
</section>`;
}

function snapshotTable(request: DashboardRequest, view: ReportsView, timeZone: string): Html {
  const { t } = request;
  if (!view.snapshots.length) return html`<p>${t('reports.none')}</p>`;
  const files = (snapshot: ReportSnapshotDocument) =>
    snapshot._expired_at
      ? html`${t('reports.expired')}`
      : html`<a href="${pdfPath(snapshot._id)}" aria-label="${t('reports.pdf.named', { sequence: snapshot.sequence })}">PDF</a>${snapshot.csv_tables.map(
          (table) => html` · <a href="${csvPath(snapshot._id, table)}" aria-label="${t('reports.csv.named', { table, sequence: snapshot.sequence })}" download>CSV ${table}</a>`,
        )}`;
  const rows = view.snapshots.map(
    (snapshot) => html`<tr>
<td>${snapshot.sequence}</td>
<td>${t(`reports.kind.${snapshot.kind}` as MessageKey)}</td>
<td>${time(request, snapshot.period_start, timeZone)} – ${time(request, snapshot.period_end, timeZone)}</td>
<td>${snapshot.locale}</td>
<td>${time(request, snapshot.created_at, timeZone)}<br><code>${snapshot.generated_by}</code></td>
<td><code title="${snapshot.sha256 ?? ''}">${short(snapshot.sha256)}</code><br><code title="${snapshot.previous_sha256 ?? ''}">${short(snapshot.previous_sha256)}</code></td>
<td>${files(snapshot)}</td>
</tr>`,
  );
  const columns = (['reports.column.sequence', 'reports.column.kind', 'reports.column.period', 'reports.column.locale', 'reports.column.created', 'reports.column.hashes', 'reports.column.files'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  return html`<table id="snapshots"><thead><tr>${columns}</tr></thead><tbody>${rows}</tbody></table>`;
}

function schedulePanel(request: DashboardRequest, view: ReportsView, store: StoreChoice): Html {
  const { t } = request;
  const { schedule } = view;
  const now = schedule
    ? t('reports.schedule.current', {
        cadence: t(`reports.cadence.${schedule.cadence}` as MessageKey),
        locale: schedule.locale,
        state: t(schedule.active ? 'reports.schedule.active' : 'reports.schedule.paused'),
      })
    : t('reports.schedule.none');
  const form = view.acts
    ? html`<form method="post" action="${dashboardPath('/reports/schedule')}" aria-labelledby="schedule-title">
${csrfField(request)}
<input type="hidden" name="store_id" value="${store._id}">
<label for="cadence">${t('reports.schedule.cadence')}</label>
<select id="cadence" name="cadence">${REPORT_CADENCES.map((cadence) => html`<option value="${cadence}"${schedule?.cadence === cadence ? html` selected` : ''}>${t(`reports.cadence.${cadence}` as MessageKey)}</option>`)}</select>
<label for="schedule-locale">${t('reports.locale')}</label>
<select id="schedule-locale" name="locale">${REPORT_LOCALES.map((locale) => html`<option value="${locale}"${(schedule?.locale ?? request.locale) === locale ? html` selected` : ''}>${t(`language.${locale}` as MessageKey)}</option>`)}</select>
<div class="choice"><input type="checkbox" id="schedule-active" name="active" value="on"${schedule?.active ?? true ? html` checked` : ''}> <label for="schedule-active">${t('reports.schedule.active')}</label></div>
<p><button type="submit">${t('reports.schedule.save')}</button></p>
</form>`
    : null;
  return html`<section aria-labelledby="schedule-title"><h2 id="schedule-title">${t('reports.schedule.title')}</h2><p id="schedule-now">${now}</p>${form}</section>`;
}

/** A store's PCI reports: generate one, its evidence chain checked, its snapshots in chain order with their files, its schedule. */
export function reportsPage(request: DashboardRequest, view: ReportsView): Html {
  const { t } = request;
  const { store } = view;
  if (!store) return layout(request, t('reports.title'), html`<p>${t('reports.intro')}</p><p>${t('reports.no-stores')}</p>`);
  const links = { first: view.paged ? reportsOf(store._id) : null, next: view.nextCursor ? reportsOf(store._id, view.nextCursor) : null };
  return layout(
    request,
    t('reports.title'),
    html`<p>${t('reports.intro')}</p>
${view.refusal ? html`<p class="error" role="alert">${t('reports.refused', { message: view.refusal })}</p>` : null}
${Object.keys(view.errors).length ? html`<p class="error" role="alert">${t('reports.error.summary')}</p>` : null}
${storeForm(request, view)}
${view.acts ? generateForm(request, view, store) : html`<p>${t('reports.viewer')}</p>`}
${view.chain ? chainPanel(request, view.chain) : null}
<h2>${t('reports.snapshots', { store: store.name })}</h2>
${snapshotTable(request, view, store.timezone)}
${cursorPages(request, links, { first: 'reports.first', next: 'reports.next', label: 'reports.pages' })}
${schedulePanel(request, view, store)}`,
  );
}
