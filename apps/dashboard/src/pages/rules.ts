import type { RuleDocument } from '@pss/contracts';
import type { RuleFilter } from '@pss/dashboard-reads';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { RULE_TARGETS, RULE_TYPES } from '../policies/rule-form';
import { commandField, type CommandFormState } from './command-form';
import { cursorPages } from './cursor-pages';
import { storeZone, type StoreChoice } from './email-channels';
import { csrfField, layout, time } from './layout';
import { listLinks, type PagedListView } from './list-links';
import { POLICIES_PAGE } from './policies';
import { storeChoices } from './script';

export const RULES_PAGE = dashboardPath('/rules');
export const rulePath = (id: string, action = ''): string => dashboardPath(`/rules/${encodeURIComponent(id)}${action}`);

export interface RuleListView extends PagedListView {
  rules: RuleDocument[];
  filter: RuleFilter;
  /** The stores the person may add a rule to (none: no form). */
  ownStores: StoreChoice[];
  form: CommandFormState;
}

const typeText = (request: DashboardRequest, type: string): string => request.t(`rules.type.${type}` as MessageKey);
const storeName = (stores: StoreChoice[], storeId: string): string => {
  const store = stores.find((candidate) => candidate._id === storeId);
  return store ? `${store.name} (${store.domain})` : storeId;
};

function filterForm(request: DashboardRequest, view: RuleListView): Html {
  const { t } = request;
  const active = view.filter.active === undefined ? '' : String(view.filter.active);
  const option = (value: string, chosen: string, text: string) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`;
  return html`<form method="get" action="${RULES_PAGE}" role="search" aria-labelledby="rules-filter-title" class="filters">
<h2 id="rules-filter-title">${t('rules.filter')}</h2>
<label for="filter-store_id">${t('rules.field.store')}</label>
<select id="filter-store_id" name="store_id">${storeChoices(request, view.stores, view.filter.store_id ?? '')}</select>
<label for="filter-type">${t('rules.field.type')}</label>
<select id="filter-type" name="type">${option('', view.filter.type ?? '', t('rules.filter.any'))}${RULE_TYPES.map((type) => option(type, view.filter.type ?? '', typeText(request, type)))}</select>
<label for="filter-active">${t('rules.column.active')}</label>
<select id="filter-active" name="active">${option('', active, t('rules.filter.any'))}${option('true', active, t('rules.active.yes'))}${option('false', active, t('rules.active.no'))}</select>
<p><button type="submit">${t('rules.filter.apply')}</button></p>
</form>`;
}

const problems = (request: DashboardRequest, state: CommandFormState): Html | null =>
  state.refused || state.reason ? html`<p class="error" role="alert">${request.t('rules.error.refused', { reason: state.reason ?? Object.values(state.refused!).join(' ') })}</p>` : null;

function creationForm(request: DashboardRequest, view: RuleListView): Html {
  const { t } = request;
  const v = view.form.values;
  const choose = (values: readonly string[], chosen: string, text: (value: string) => string) =>
    values.map((value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text(value)}</option>`);
  return html`<section aria-labelledby="new-rule-title"><h2 id="new-rule-title">${t('rules.new')}</h2>
<form method="post" action="${RULES_PAGE}" novalidate>
${problems(request, view.form)}
${csrfField(request)}
${commandField(request, view.form, 'store_id', 'rules.field.store', (attributes) => html`<select ${attributes}>${choose(view.ownStores.map((store) => store._id), v.store_id ?? '', (id) => storeName(view.stores, id))}</select>`)}
${commandField(request, view.form, 'type', 'rules.field.type', (attributes) => html`<select ${attributes}>${choose(RULE_TYPES, v.type ?? 'block', (type) => typeText(request, type))}</select>`)}
${commandField(request, view.form, 'target', 'rules.field.target', (attributes) => html`<select ${attributes}>${choose(RULE_TARGETS, v.target ?? 'domain', (target) => t(`rules.target.${target}` as MessageKey))}</select>`)}
${commandField(request, view.form, 'value', 'rules.field.value', (attributes) => html`<input type="text" ${attributes} value="${v.value ?? ''}" autocomplete="off" required>`)}
${commandField(request, view.form, 'label', 'rules.field.label', (attributes) => html`<input type="text" ${attributes} value="${v.label ?? ''}" autocomplete="off">`)}
<p><button type="submit">${t('rules.create')}</button></p>
</form></section>`;
}

/** The organization's block and allow rules, newest first, a page at a time with GET /rules' cursors; a form to add one. */
export function ruleListPage(request: DashboardRequest, view: RuleListView): Html {
  const { t } = request;
  const headings = (['rules.column.label', 'rules.column.store', 'rules.column.type', 'rules.column.target', 'rules.column.active', 'rules.column.created'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  const rows = view.rules.map(
    (rule) => html`<tr>
<td><a href="${rulePath(rule._id)}">${rule.label}</a></td>
<td>${storeName(view.stores, rule.store_id)}</td>
<td>${typeText(request, rule.type)}</td>
<td>${t(`rules.target.${rule.target}` as MessageKey)}: <code>${rule.value}</code></td>
<td>${t(rule.active ? 'rules.active.yes' : 'rules.active.no')}</td>
<td>${time(request, rule.created_at, storeZone(view.stores, rule.store_id))}</td>
</tr>`,
  );
  const links = listLinks(RULES_PAGE, { ...view.filter }, view.paged, view.nextCursor);
  return layout(
    request,
    t('rules.title'),
    html`<p>${t('rules.intro')}</p>
${view.staleCursor ? html`<p class="error" role="alert">${t('rules.error.cursor')}</p>` : null}
<p><a href="${POLICIES_PAGE}">${t('nav.policies')}</a></p>
${filterForm(request, view)}
${view.rules.length ? html`<table id="rules"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>` : html`<p>${t('rules.none')}</p>`}
${cursorPages(request, links, { first: 'rules.first', next: 'rules.next', label: 'rules.pages' })}
${view.ownStores.length ? creationForm(request, view) : null}`,
  );
}

export interface RuleView {
  rule: RuleDocument;
  stores: StoreChoice[];
  /** Whether the person may change it: the store's owner or the organization's. */
  manages: boolean;
  form: CommandFormState;
}

/** One rule: what it covers, its label and whether it acts (a form for those who manage it), and deactivation. */
export function rulePage(request: DashboardRequest, view: RuleView): Html {
  const { t } = request;
  const { rule } = view;
  const facts = html`<dl>
<dt>${t('rules.field.store')}</dt><dd>${storeName(view.stores, rule.store_id)}</dd>
<dt>${t('rules.field.type')}</dt><dd>${typeText(request, rule.type)}</dd>
<dt>${t('rules.field.target')}</dt><dd>${t(`rules.target.${rule.target}` as MessageKey)}: <code>${rule.value}</code></dd>
<dt>${t('rules.column.active')}</dt><dd id="rule-active">${t(rule.active ? 'rules.active.yes' : 'rules.active.no')}</dd>
<dt>${t('rules.column.created')}</dt><dd>${time(request, rule.created_at, storeZone(view.stores, rule.store_id))}</dd>
</dl>`;
  const v = view.form.values;
  const forms = view.manages
    ? html`<form method="post" action="${rulePath(rule._id)}" novalidate>
${problems(request, view.form)}
${csrfField(request)}
${commandField(request, view.form, 'label', 'rules.field.label', (attributes) => html`<input type="text" ${attributes} value="${v.label ?? ''}" autocomplete="off" required>`)}
<div class="choice"><input type="checkbox" id="active" name="active" value="on"${v.active === 'on' ? html` checked` : ''}> <label for="active">${t('rules.field.active')}</label></div>
<p><button type="submit">${t('rules.save')}</button></p>
</form>
${rule.active ? html`<form method="post" action="${rulePath(rule._id, '/deactivate')}">${csrfField(request)}<p><button type="submit" class="secondary">${t('rules.deactivate')}</button></p></form>` : null}`
    : html`<p>${t('rules.read-only')}</p>`;
  return layout(request, rule.label, html`${facts}${forms}<p><a href="${RULES_PAGE}">${t('rules.back')}</a></p>`);
}
