import { REQUIRES_MEMBER } from '../access/roles';
import { html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRoute } from '../http/dashboard-route';
import { layout } from '../pages/layout';

/** The home page after sign-in: the organization and who is signed in, with what role. */
export function homeRoutes(): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const { t } = request;
        const { member, organization } = request.signedIn!;
        return {
          page: layout(
            request,
            t('home.title'),
            html`<p>${t('home.signed-in-as', { email: member.email })}</p>
<dl>
<dt>${t('home.organization')}</dt><dd>${organization.name}</dd>
<dt>${t('home.role')}</dt><dd>${t(`role.${member.role.kind}` as MessageKey)}</dd>
</dl>
<p><a href="${dashboardPath('/passkeys')}">${t('nav.passkeys')}</a></p>`,
          ),
        };
      },
    },
  ];
}
