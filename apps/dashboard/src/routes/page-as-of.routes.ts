import { PAGE_HISTORY_QUERIES, type ScriptsOnPageAtReply, type ScriptsOnPageAtRequest } from '@pss/contracts';
import { listPaymentPages } from '@pss/store-reads';
import { REQUIRES_MEMBER } from '../access/roles';
import type { DashboardRoute } from '../http/dashboard-route';
import { momentIn, momentSearchOf, wallClockOf } from '../page-as-of/moment';
import { errorPage } from '../pages/layout';
import { pageAsOfPage, type PageAsOfView } from '../pages/page-as-of';
import { storesOf } from './organization-stores';
import type { RouteDeps } from './route-deps';

/**
 * A payment page as of a moment (issue 32): every member may look. The scripts come from inventory, which owns
 * the script streams, over the bus (`inventory.page.scripts-at`); the dashboard reads no stream of its own here.
 */
export function pageAsOfRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '/page-as-of',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const orgId = request.signedIn!.organization.id;
        const stores = await storesOf(readStore, orgId);
        const search = momentSearchOf(request.query);
        const store = stores.find((candidate) => candidate._id === search.store_id);
        if (search.store_id && !store) return errorPage(request, 404, request.t('error.not-found'));
        const view: PageAsOfView = { search, stores, store, pages: store ? await listPaymentPages(readStore, store._id) : [], invalid: [] };
        if (!store) return { page: pageAsOfPage(request, { ...view, search: { ...search, store_id: stores[0]?._id ?? '' } }) };
        // The form starts at now on the store's clock: the question is usually "before that change, today".
        if (!search.page_id) return { page: pageAsOfPage(request, { ...view, search: { ...search, ...wallClockOf(request.now, store.timezone) } }) };
        if (!view.pages.some((page) => page.id === search.page_id)) return errorPage(request, 404, request.t('error.not-found'));
        const moment = momentIn(search.date, search.time, store.timezone);
        if ('invalid' in moment) return { status: 400, page: pageAsOfPage(request, { ...view, invalid: moment.invalid }) };
        const query: ScriptsOnPageAtRequest = { orgId, storeId: store._id, pageId: search.page_id, at: moment.at };
        const result = await bus.request<ScriptsOnPageAtReply>(PAGE_HISTORY_QUERIES.scriptsOnPageAt, query);
        return { page: pageAsOfPage(request, { ...view, result }) };
      },
    },
  ];
}
