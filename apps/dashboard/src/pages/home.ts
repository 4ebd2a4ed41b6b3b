import { ALERT_SEVERITIES } from '@pss/contracts';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { AWAITING_DECISION, needsAction, type NeedsAction, type OrganizationSummary, type StoreSummary } from '../stores/store-summary';
import { csrfField, layout, time } from './layout';
import { NEW_STORE, storePath } from './stores';

/** The home page's data: the acting organization's stores (a page of them), and a partner's child organizations. */
export interface HomeView {
  stores: StoreSummary[];
  nextCursor: string | null;
  /** Set on the first page of a partner's own organization: every child, most in need first. */
  children?: OrganizationSummary[];
  canCreateStore: boolean;
  /** The cursor asked for was none this list gave: the first page is shown instead. */
  staleCursor?: boolean;
}

/** Only the counts that are not zero, as `2 malicious, 1 suspicious`; `none` when nothing waits. */
function counts(request: DashboardRequest, item: NeedsAction, kind: 'decisions' | 'alerts'): string {
  const { t } = request;
  const parts =
    kind === 'decisions'
      ? AWAITING_DECISION.filter((status) => item.decisions[status]).map((status) => t(`home.count.${status}` as MessageKey, { count: item.decisions[status] }))
      : ALERT_SEVERITIES.filter((severity) => item.alerts[severity]).map((severity) => t(`home.count.${severity}` as MessageKey, { count: item.alerts[severity] }));
  return parts.length ? parts.join(', ') : t('home.none');
}

function sdkCell(request: DashboardRequest, { sdk, store }: StoreSummary): Html {
  const { t } = request;
  const state = sdk.paused ? t('home.sdk.paused') : !sdk.installed ? t('home.sdk.not-installed') : sdk.silent ? t('home.sdk.silent') : t('home.sdk.installed');
  return html`${state}${sdk.last_event_at ? html`<br>${t('home.sdk.last-page-view')} ${time(request, sdk.last_event_at, store.timezone)}` : null}`;
}

function storeRow(request: DashboardRequest, summary: StoreSummary): Html {
  const { t } = request;
  const { store } = summary;
  return html`<tr>
<th scope="row"><a href="${storePath(store.id, 'settings')}">${store.name}</a><br><span class="detail">${store.domain}</span>${store.status === 'suspended' ? html`<br>${t('stores.status.suspended')}` : null}</th>
<td>${sdkCell(request, summary)}<br><a href="${storePath(store.id, 'install')}" aria-label="${t('home.install-of', { name: store.name })}">${t('home.install')}</a></td>
<td>${counts(request, summary, 'decisions')}</td>
<td>${counts(request, summary, 'alerts')}</td>
<td>${summary.lastReport ? time(request, summary.lastReport.created_at, store.timezone) : t('home.report.none')}</td>
<td>${summary.nextReport ? time(request, summary.nextReport, store.timezone) : t('home.report.unscheduled')}</td>
</tr>`;
}

const actIn = (request: DashboardRequest, orgId: string, name: string): Html =>
  html`<form method="post" action="${dashboardPath('/organizations/act')}">${csrfField(request)}<input type="hidden" name="org_id" value="${orgId}"><button type="submit" class="secondary">${request.t('partners.act', { name })}</button></form>`;

function childrenTable(request: DashboardRequest, children: OrganizationSummary[]): Html {
  const { t } = request;
  const rows = children.map(
    (child) => html`<tr class="${needsAction(child) ? 'needs-action' : ''}">
<th scope="row">${child.organization.name}</th>
<td>${child.stores}</td>
<td>${counts(request, child, 'decisions')}</td>
<td>${counts(request, child, 'alerts')}</td>
<td>${actIn(request, child.organization.id, child.organization.name)}</td>
</tr>`,
  );
  return html`<section aria-labelledby="children-title"><h2 id="children-title">${t('home.children')}</h2>
<p>${t('home.children.intro')}</p>
<table><thead><tr><th scope="col">${t('partners.name')}</th><th scope="col">${t('home.column.stores')}</th><th scope="col">${t('home.column.decisions')}</th><th scope="col">${t('home.column.alerts')}</th><th scope="col">${t('partners.action')}</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
}

/** Home: who is signed in, then what needs action in the organization's stores (and a partner's children). */
export function homePage(request: DashboardRequest, view: HomeView): Html {
  const { t } = request;
  const { member, organization } = request.signedIn!;
  const headings = (['home.column.store', 'home.column.sdk', 'home.column.decisions', 'home.column.alerts', 'home.column.last-report', 'home.column.next-report'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  return layout(
    request,
    t('home.title'),
    html`<p>${t('home.signed-in-as', { email: member.email })}</p>
<dl>
<dt>${t('home.organization')}</dt><dd>${organization.name}</dd>
<dt>${t('home.role')}</dt><dd>${t(`role.${member.role.kind}` as MessageKey)}</dd>
</dl>
<p><a href="${dashboardPath('/passkeys')}">${t('nav.passkeys')}</a></p>
${view.children?.length ? childrenTable(request, view.children) : null}
<section aria-labelledby="stores-title"><h2 id="stores-title">${t('home.stores')}</h2>
${view.staleCursor ? html`<p class="error" role="alert">${t('home.stale-cursor')}</p>` : null}
${view.canCreateStore ? html`<p><a class="button" href="${NEW_STORE}">${t('home.new-store')}</a></p>` : null}
${view.stores.length
  ? html`<table class="stores"><thead><tr>${headings}</tr></thead><tbody>${view.stores.map((summary) => storeRow(request, summary))}</tbody></table>`
  : html`<p>${t('home.no-stores')}</p>`}
${view.nextCursor ? html`<p><a href="${dashboardPath('')}?cursor=${encodeURIComponent(view.nextCursor)}">${t('home.next-page')}</a></p>` : null}
</section>`,
  );
}
