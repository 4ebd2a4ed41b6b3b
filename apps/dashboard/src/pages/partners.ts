import type { OrganizationDocument } from '@pss/contracts';
import { html, type Html } from '../html/html';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { csrfField, layout } from './layout';

const actForm = (request: DashboardRequest, orgId: string, label: string): Html =>
  html`<form method="post" action="${dashboardPath('/organizations/act')}">${csrfField(request)}<input type="hidden" name="org_id" value="${orgId}"><button type="submit">${label}</button></form>`;

/** The partner's child organizations, each with the button to act in it; the way back while acting in one. */
export function organizationsPage(request: DashboardRequest, children: OrganizationDocument[]): Html {
  const { t } = request;
  const { partner, organization, member } = request.signedIn!;
  const rows = children.map(
    (child) => html`<tr><td>${child.name}</td><td><code>${child._id}</code></td><td>${child._id === organization.id ? t('partners.current') : actForm(request, child._id, t('partners.act', { name: child.name }))}</td></tr>
`,
  );
  return layout(
    request,
    t('partners.title'),
    html`<p>${t('partners.intro')}</p>
${partner ? html`<p>${t('partners.acting-now', { name: organization.name })}</p>${actForm(request, member.org_id, t('partners.back-to', { name: partner.name }))}` : null}
${children.length
  ? html`<table><thead><tr><th scope="col">${t('partners.name')}</th><th scope="col">ID</th><th scope="col">${t('partners.action')}</th></tr></thead><tbody>${rows}</tbody></table>`
  : html`<p>${t('partners.none')}</p>`}`,
  );
}
