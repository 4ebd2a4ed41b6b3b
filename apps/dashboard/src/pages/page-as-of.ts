import type { ScriptsOnPageAtReply } from '@pss/contracts';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import type { MomentSearch } from '../page-as-of/moment';
import type { StoreChoice } from './email-channels';
import { layout, time } from './layout';

export const PAGE_AS_OF = dashboardPath('/page-as-of');

export interface PageChoice {
  id: string;
  url_pattern: string;
}

export interface PageAsOfView {
  search: MomentSearch;
  stores: StoreChoice[];
  /** The chosen store's payment pages (none until a store is chosen). */
  pages: PageChoice[];
  store?: StoreChoice;
  /** The fields that are not what they must be. */
  invalid: Array<'date' | 'time'>;
  result?: ScriptsOnPageAtReply;
}

const storeForm = (request: DashboardRequest, view: PageAsOfView): Html =>
  html`<form method="get" action="${PAGE_AS_OF}" aria-labelledby="as-of-store-title">
<h2 id="as-of-store-title">${request.t('as-of.step.store')}</h2>
<label for="store_id">${request.t('as-of.store')}</label>
<select id="store_id" name="store_id">
${view.stores.map((store) => html`<option value="${store._id}"${store._id === view.search.store_id ? html` selected` : ''}>${store.name} (${store.domain})</option>`)}
</select>
<p><button type="submit">${request.t('as-of.choose-store')}</button></p>
</form>`;

function momentForm(request: DashboardRequest, view: PageAsOfView, store: StoreChoice): Html {
  const { t } = request;
  const field = (name: 'date' | 'time', type: string, label: MessageKey) => {
    const wrong = view.invalid.includes(name);
    return html`<label for="${name}">${t(label)}</label>
${wrong ? html`<p class="error" id="${name}-error">${t(`as-of.error.${name}` as MessageKey)}</p>` : null}
<input type="${type}" id="${name}" name="${name}" value="${view.search[name]}"${name === 'time' ? html` step="1"` : ''} required aria-describedby="zone-hint${wrong ? ` ${name}-error` : ''}"${wrong ? html` aria-invalid="true"` : ''}>`;
  };
  return html`<form method="get" action="${PAGE_AS_OF}" aria-labelledby="as-of-moment-title">
<h2 id="as-of-moment-title">${t('as-of.step.moment')}</h2>
<input type="hidden" name="store_id" value="${store._id}">
<label for="page_id">${t('as-of.page')}</label>
<select id="page_id" name="page_id">
${view.pages.map((page) => html`<option value="${page.id}"${page.id === view.search.page_id ? html` selected` : ''}>${page.url_pattern}</option>`)}
</select>
<p class="hint" id="zone-hint">${t('as-of.zone', { zone: store.timezone })}</p>
${field('date', 'date', 'as-of.date')}
${field('time', 'time', 'as-of.time')}
<p><button type="submit">${t('as-of.show')}</button></p>
</form>`;
}

function scriptTable(request: DashboardRequest, result: ScriptsOnPageAtReply, timeZone: string): Html {
  const { t } = request;
  if (!result.scripts.length) return html`<p>${t('as-of.none')}</p>`;
  const rows = result.scripts.map(
    (script) => html`<tr>
<td class="address">${script.src}</td>
<td>${t(`as-of.status.${script.status}` as MessageKey)}</td>
<td>${t(`as-of.integrity.${script.integrity_status}` as MessageKey)}</td>
<td class="address"><code>${script.hash ?? '—'}</code></td>
<td>${time(request, script.first_seen_at, timeZone)}</td>
<td>${time(request, script.changed_at, timeZone)}</td>
</tr>`,
  );
  const columns = (['as-of.column.script', 'as-of.column.status', 'as-of.column.integrity', 'as-of.column.hash', 'as-of.column.first-seen', 'as-of.column.changed'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  return html`<table id="page-as-of"><thead><tr>${columns}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** Pick a store, then one of its payment pages and a moment on its clock; see the scripts that were on it then. */
export function pageAsOfPage(request: DashboardRequest, view: PageAsOfView): Html {
  const { t } = request;
  const { store, result } = view;
  const heading = result && store
    ? html`<h2 id="as-of-result">${t('as-of.result', { page: result.url_pattern, store: store.name })} ${time(request, result.at, store.timezone)}</h2>
${result.truncated ? html`<p class="notice" role="status">${t('as-of.truncated', { limit: result.limit })}</p>` : null}
${scriptTable(request, result, store.timezone)}`
    : null;
  const body = !view.stores.length
    ? html`<p>${t('as-of.no-stores')}</p>`
    : html`${storeForm(request, view)}
${store ? (view.pages.length ? momentForm(request, view, store) : html`<p>${t('as-of.no-pages')}</p>`) : null}
${heading}`;
  return layout(request, t('as-of.title'), html`<p>${t('as-of.intro')}</p>
${view.invalid.length ? html`<p class="error" role="alert">${t('as-of.error.summary')}</p>` : null}
${body}`);
}
