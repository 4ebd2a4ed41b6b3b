import { INTEGRITY_STATUSES, SCRIPT_STATUSES, SCRIPT_TYPES, type PaymentPageDocument, type ScriptDocument } from '@pss/contracts';
import type { ErrorDetail } from '@pss/kernel';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { inventoryQueryString, type InventorySearch } from '../inventory/inventory-filter';
import { cursorPages } from './cursor-pages';
import { storeZone, type StoreChoice } from './email-channels';
import { layout, time } from './layout';
import { scriptPath, storeChoices } from './script';

export const INVENTORY = dashboardPath('/inventory');
export const INVENTORY_CSV = dashboardPath('/inventory.csv');

export interface InventoryView {
  search: InventorySearch;
  stores: StoreChoice[];
  /** The chosen store's payment pages (none before a store is chosen). */
  paymentPages: PaymentPageDocument[];
  scripts: ScriptDocument[];
  paged: boolean;
  nextCursor: string | null;
  /** What the reads refused of the filter, field by field, in the API's words. */
  refused: ErrorDetail[];
}

const choices = (request: DashboardRequest, values: readonly string[], chosen: string, label: (value: string) => string): Html =>
  html`<option value="">${request.t('inventory.any')}</option>${values.map((value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${label(value)}</option>`)}`;

function filterForm(request: DashboardRequest, view: InventoryView): Html {
  const { t } = request;
  const { search } = view;
  const problem = (field: string) => view.refused.find((detail) => detail.field === field);
  const select = (field: keyof InventorySearch, label: MessageKey, options: Html) => {
    const refused = problem(field);
    return html`<div class="filter-field"><label for="${field}">${t(label)}</label>
${refused ? html`<p class="error" id="${field}-error">${refused.message}</p>` : null}
<select id="${field}" name="${field}"${refused ? html` aria-invalid="true" aria-describedby="${field}-error"` : ''}>${options}</select></div>`;
  };
  const category = problem('category');
  return html`<form method="get" action="${INVENTORY}" role="search" aria-labelledby="filter-title" class="inventory-filter">
<h2 id="filter-title">${t('inventory.filter')}</h2>
${select('store_id', 'inventory.store', storeChoices(request, view.stores, search.store_id))}
${select(
  'payment_page_id',
  'inventory.payment-page',
  html`<option value="">${t(search.store_id ? 'inventory.any-page' : 'inventory.page-needs-store')}</option>${view.paymentPages.map(
    (page) => html`<option value="${page._id}"${page._id === search.payment_page_id ? html` selected` : ''}>${page.url_pattern}</option>`,
  )}`,
)}
${select('status', 'inventory.status', choices(request, SCRIPT_STATUSES, search.status, (value) => t(`script.status.${value}` as MessageKey)))}
${select('type', 'inventory.type', choices(request, SCRIPT_TYPES, search.type, (value) => t(`script.type.${value}` as MessageKey)))}
${select('integrity_status', 'inventory.integrity', choices(request, INTEGRITY_STATUSES, search.integrity_status, (value) => t(`script.integrity.${value}` as MessageKey)))}
<div class="filter-field"><label for="category">${t('inventory.category')}</label>
${category ? html`<p class="error" id="category-error">${category.message}</p>` : null}
<input type="text" id="category" name="category" value="${search.category}" maxlength="64" autocomplete="off"${category ? html` aria-invalid="true" aria-describedby="category-error"` : ''}></div>
<p><button type="submit">${t('inventory.apply')}</button> <a href="${INVENTORY}">${t('inventory.clear')}</a></p>
</form>`;
}

function scriptTable(request: DashboardRequest, view: InventoryView): Html {
  const { t } = request;
  const names = new Map(view.stores.map((store) => [store._id, store.name]));
  // One store chosen: its name on every row would only take the room the addresses need. The category (a filter) and
  // the sightings are on the script's page and in the CSV.
  const storeColumn = !view.search.store_id;
  const rows = view.scripts.map((script) => {
    const zone = storeZone(view.stores, script.store_id);
    return html`<tr data-script-id="${script._id}">
<td><a href="${scriptPath(script._id)}" class="src">${script.src}</a></td>
${storeColumn ? html`<td>${names.get(script.store_id) ?? script.store_id}</td>` : null}
<td>${script.type ? t(`script.type.${script.type}` as MessageKey) : '—'}</td>
<td>${script.vendor_id ?? '—'}</td>
<td>${t(`script.status.${script.status}` as MessageKey)}</td>
<td>${script.integrity_status ? t(`script.integrity.${script.integrity_status}` as MessageKey) : '—'}</td>
<td>${time(request, script.first_seen_at, zone)}<br>${time(request, script.last_seen_at, zone)}</td>
</tr>`;
  });
  const keys: MessageKey[] = ['script.src', ...(storeColumn ? (['script.store'] as const) : []), 'script.type', 'script.vendor', 'script.status', 'script.integrity', 'inventory.seen'];
  return html`<table id="inventory"><thead><tr>${keys.map((key) => html`<th scope="col">${t(key)}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The inventory, newest first, a page at a time (GET /scripts's cursors), with its filter and its CSV. */
export function inventoryPage(request: DashboardRequest, view: InventoryView): Html {
  const { t } = request;
  return layout(
    request,
    t('inventory.title'),
    html`<p>${t('inventory.intro')}</p>
${view.refused.length ? html`<p class="error" role="alert">${t(view.refused.some((detail) => detail.field === 'cursor') ? 'inventory.error.cursor' : 'inventory.error.filter')}</p>` : null}
${filterForm(request, view)}
${view.refused.length ? null : html`<p><a href="${INVENTORY_CSV}${inventoryQueryString(view.search)}" download>${t('inventory.csv')}</a></p>`}
${view.scripts.length ? scriptTable(request, view) : html`<p>${t('inventory.none')}</p>`}
${cursorPages(request, {
  first: view.paged ? `${INVENTORY}${inventoryQueryString(view.search)}` : undefined,
  next: view.nextCursor ? `${INVENTORY}${inventoryQueryString(view.search, view.nextCursor)}` : undefined,
}, { first: 'inventory.first', next: 'inventory.next', label: 'inventory.pages' })}`,
  );
}
