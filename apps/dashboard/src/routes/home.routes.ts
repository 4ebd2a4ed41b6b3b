import { allows, REQUIRES_MEMBER, REQUIRES_ORGANIZATION_OWNER } from '../access/roles';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { homePage } from '../pages/home';
import { childOrganizations, storeSummary, storesPage } from '../stores/store-queries';
import { byNeed } from '../stores/store-summary';
import type { RouteDeps } from './route-deps';

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
        const found = await storesPage(readStore, orgId, cursor).catch((error: unknown) => {
          if (isCursorRefusal(error)) return undefined;
          throw error;
        });
        // A cursor this list never gave (an edited address): the first page, saying so.
        const { stores, nextCursor } = found ?? (await storesPage(readStore, orgId, undefined));
        const summaries = await Promise.all(stores.map((store) => storeSummary(readStore, store, request.now)));
        const children = (!cursor || !found) && partnerAtHome(request) ? await childOrganizations(readStore, orgId) : undefined;
        return {
          status: found ? 200 : 400,
          page: homePage(request, {
            stores: byNeed(summaries, (summary) => summary.store.name),
            nextCursor,
            children,
            canCreateStore: allows(request.signedIn!.member.role, REQUIRES_ORGANIZATION_OWNER),
            staleCursor: !found,
          }),
        };
      },
    },
  ];
}
