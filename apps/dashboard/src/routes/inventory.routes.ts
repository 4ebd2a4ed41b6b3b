import { inventoryCsv, inventoryPage, scriptDetails, storePaymentPages } from '@pss/dashboard-reads';
import { DomainError, type ErrorDetail } from '@pss/kernel';
import { CSV_CONTENT_TYPE } from '@pss/report-files';
import { REQUIRES_MEMBER } from '../access/roles';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { inventorySearchOf, scriptFilterOf } from '../inventory/inventory-filter';
import { inventoryPage as inventoryView, type InventoryView } from '../pages/inventory';
import { errorPage } from '../pages/layout';
import { scriptPage } from '../pages/script';
import { storesOf } from './organization-stores';
import type { RouteDeps } from './route-deps';

/** The fields a read refused (a filter value, a cursor), or undefined for any other error, which is not the reader's. */
const refusedFields = (error: unknown): ErrorDetail[] | undefined => (error instanceof DomainError && error.code === 'validation_error' ? (error.details ?? []) : undefined);

/**
 * The inventory (issue 32) per store and per payment page with GET /scripts's filters, a page at a time by its
 * cursors, exported as CSV; and a script's own page. Every member reads them, for the acting organization.
 */
export function inventoryRoutes({ readStore }: RouteDeps): DashboardRoute[] {
  async function view(request: DashboardRequest): Promise<InventoryView> {
    const orgId = request.signedIn!.organization.id;
    const search = inventorySearchOf(request.query);
    const [stores, paymentPages] = await Promise.all([storesOf(readStore, orgId), search.store_id ? storePaymentPages(readStore, orgId, search.store_id) : []]);
    return { search, stores, paymentPages, scripts: [], paged: false, nextCursor: null, refused: [] };
  }

  return [
    {
      method: 'GET',
      path: '/inventory',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const shown = await view(request);
        const cursor = request.query.cursor || undefined;
        try {
          const page = await inventoryPage(readStore, request.signedIn!.organization.id, scriptFilterOf(shown.search), { cursor });
          return { page: inventoryView(request, { ...shown, scripts: page.scripts, paged: cursor !== undefined, nextCursor: page.next_cursor }) };
        } catch (error) {
          const refused = refusedFields(error);
          if (!refused) throw error;
          return { status: 400, page: inventoryView(request, { ...shown, paged: cursor !== undefined, refused }) };
        }
      },
    },
    {
      method: 'GET',
      path: '/inventory.csv',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const search = inventorySearchOf(request.query);
        try {
          const chunks = await inventoryCsv(readStore, request.signedIn!.organization.id, scriptFilterOf(search));
          return { download: { filename: `inventory-${request.now.toISOString().slice(0, 10)}.csv`, contentType: CSV_CONTENT_TYPE, chunks } };
        } catch (error) {
          const refused = refusedFields(error);
          if (!refused) throw error;
          return { status: 400, page: inventoryView(request, { ...(await view(request)), refused }) };
        }
      },
    },
    {
      method: 'GET',
      path: '/scripts/:id',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const details = await scriptDetails(readStore, request.signedIn!.organization.id, request.params.id);
        return details ? { page: scriptPage(request, details) } : errorPage(request, 404, request.t('error.not-found'));
      },
    },
  ];
}
