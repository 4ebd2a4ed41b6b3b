import { ORGANIZATIONS, STORES, type OrganizationDocument } from '@pss/contracts';
import type { ReadStore } from '@pss/read-store';
import { allows, REQUIRES_MEMBER, REQUIRES_ORGANIZATION_OWNER } from '../access/roles';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { homePage } from '../pages/home';
import { needsActionOf, storeSummary, storesPage } from '../stores/store-queries';
import { byNeed, type OrganizationSummary } from '../stores/store-summary';
import type { RouteDeps } from './route-deps';

/** A partner's child organizations, each with what waits in it, most in need first (counts, never lists). */
async function childrenOf(readStore: ReadStore, partnerId: string): Promise<OrganizationSummary[]> {
  const children = await readStore.collection<OrganizationDocument>(ORGANIZATIONS).find({ parent_org_id: partnerId }, { sort: { name: 1 } });
  const summaries = await Promise.all(
    children.map(async (child) => ({
      ...(await needsActionOf(readStore, { org_id: child._id })),
      organization: { id: child._id, name: child.name },
      stores: await readStore.collection(STORES).count({ org_id: child._id, status: 'active' }),
    })),
  );
  return byNeed(summaries, (summary) => summary.organization.name);
}

/** Whether the person is a partner's owner in their own organization (not acting in a child). */
const partnerAtHome = (request: DashboardRequest): boolean =>
  allows(request.signedIn!.member.role, REQUIRES_ORGANIZATION_OWNER) && !request.signedIn!.partner;

/**
 * The home page after sign-in: who is signed in, then each store of the acting organization (a page of them by
 * the API's cursor) with its SDK, what awaits a decision, open alerts and reports; a partner's owner also sees
 * every child organization at once, most in need first.
 */
export function homeRoutes({ readStore }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const orgId = request.signedIn!.organization.id;
        const cursor = request.query.cursor || undefined;
        const { stores, nextCursor } = await storesPage(readStore, orgId, cursor);
        const summaries = await Promise.all(stores.map((store) => storeSummary(readStore, store, request.now)));
        const children = !cursor && partnerAtHome(request) ? await childrenOf(readStore, orgId) : undefined;
        return {
          page: homePage(request, {
            stores: byNeed(summaries, (summary) => summary.store.name),
            nextCursor,
            children,
            canCreateStore: allows(request.signedIn!.member.role, REQUIRES_ORGANIZATION_OWNER),
          }),
        };
      },
    },
  ];
}
