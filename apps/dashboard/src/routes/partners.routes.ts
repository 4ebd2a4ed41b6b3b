import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { actsIn, REQUIRES_ORGANIZATION_OWNER } from '../access/roles';
import { dashboardPath, type DashboardRoute } from '../http/dashboard-route';
import { errorPage } from '../pages/layout';
import { organizationsPage } from '../pages/partners';
import type { RouteDeps } from './route-deps';

/**
 * Partners: the owner of a partner organization lists its child organizations and acts in one, which every page
 * then reads and changes (`signedIn.organization`), until they switch back. Each child keeps its own owner.
 */
export function partnersRoutes({ readStore }: RouteDeps): DashboardRoute[] {
  const organizations = () => readStore.collection<OrganizationDocument>(ORGANIZATIONS);
  return [
    {
      method: 'GET',
      path: '/organizations',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request) {
        const children = await organizations().find({ parent_org_id: request.signedIn!.member.org_id }, { sort: { name: 1 } });
        return { page: organizationsPage(request, children) };
      },
    },
    {
      method: 'POST',
      path: '/organizations/act',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request, session) {
        const { member } = request.signedIn!;
        if (request.form.org_id === member.org_id) {
          request.session.actingOrgId = undefined;
          session.flash('partners.back', { name: request.signedIn!.partner?.name ?? request.signedIn!.organization.name });
          return { redirect: dashboardPath('') };
        }
        const child = await organizations().findOne({ _id: request.form.org_id ?? '' });
        // Another partner's child, or no child at all: the same answer, nothing said about it.
        if (!child || !actsIn(member, child)) return errorPage(request, 404, request.t('error.not-found'));
        request.session.actingOrgId = child._id;
        session.flash('partners.acting', { name: child.name });
        return { redirect: dashboardPath('') };
      },
    },
  ];
}
