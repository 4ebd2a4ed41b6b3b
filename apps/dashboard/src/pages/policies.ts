import { POLICY_ACTIONS, POLICY_MODES, type PolicyDocument, type PolicyRunItem, type PolicySimulation } from '@pss/contracts';
import { ORGANIZATION_WIDE } from '../email-channels/email-channel-form';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { MATCH_LISTS, NUMBER_CONDITIONS, YES_NO_CONDITIONS } from '../policies/policy-form';
import { commandField, type CommandFormState } from './command-form';
import { cursorPages } from './cursor-pages';
import { scopeLabel, storeZone, type StoreChoice } from './email-channels';
import { csrfField, layout, time } from './layout';
import { listLinks, type PagedListView } from './list-links';
import { scriptPath, storeChoices } from './script';

export const POLICIES_PAGE = dashboardPath('/policies');
export const NEW_POLICY = dashboardPath('/policies/new');
export const policyPath = (id: string, action = ''): string => dashboardPath(`/policies/${encodeURIComponent(id)}${action}`);

export interface PolicyListView extends PagedListView {
  policies: PolicyDocument[];
  storeId: string;
  canCreate: boolean;
}

const modeText = (request: DashboardRequest, mode: string): string => request.t(`policies.mode.${mode}` as MessageKey);
const actionText = (request: DashboardRequest, action: string): string => request.t(`policies.action.${action}` as MessageKey);
/** The organization's policies in evaluation order (the first that matches decides), a page at a time with the API's cursors. */
export function policyListPage(request: DashboardRequest, view: PolicyListView): Html {
  const { t } = request;
  const headings = (['policies.column.priority', 'policies.column.name', 'policies.column.mode', 'policies.column.action', 'policies.column.version', 'policies.column.scope', 'policies.column.active'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  const rows = view.policies.map(
    (policy) => html`<tr>
<td>${policy.priority}</td>
<td><a href="${policyPath(policy._id)}">${policy.name}</a></td>
<td>${modeText(request, policy.mode)}</td>
<td>${actionText(request, policy.action)}</td>
<td>${policy.version}</td>
<td>${scopeLabel(request, policy.store_id, view.stores)}</td>
<td>${t(policy.active ? 'policies.active.yes' : 'policies.active.no')}</td>
</tr>`,
  );
  const links = listLinks(POLICIES_PAGE, { store_id: view.storeId }, view.paged, view.nextCursor);
  return layout(
    request,
    t('policies.title'),
    html`<p>${t('policies.intro')}</p>
${view.staleCursor ? html`<p class="error" role="alert">${t('policies.error.cursor')}</p>` : null}
<p><a href="${dashboardPath('/rules')}">${t('nav.rules')}</a></p>
${view.canCreate ? html`<p><a class="button" href="${NEW_POLICY}">${t('policies.new')}</a></p>` : null}
<form method="get" action="${POLICIES_PAGE}" role="search" aria-labelledby="policies-filter-title" class="filters">
<h2 id="policies-filter-title">${t('policies.filter')}</h2>
<label for="filter-store_id">${t('policies.filter.store')}</label>
<select id="filter-store_id" name="store_id">${storeChoices(request, view.stores, view.storeId)}</select>
<p><button type="submit">${t('policies.filter.apply')}</button></p>
</form>
${view.policies.length ? html`<table id="policies"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>` : html`<p>${t('policies.none')}</p>`}
${cursorPages(request, links, { first: 'policies.first', next: 'policies.next', label: 'policies.pages' })}`,
  );
}

const options = (values: readonly string[], chosen: string, text: (value: string) => string): Html[] =>
  values.map((value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text(value)}</option>`);

/** Every setting of a policy; `scope` is the select on creation, the fixed scope's name on an edit. */
function policyFields(request: DashboardRequest, state: CommandFormState, scope: Html): Html {
  const { t } = request;
  const v = state.values;
  const input = (name: string, type = 'text') => (attributes: Html) => html`<input type="${type}" ${attributes} value="${v[name] ?? ''}" autocomplete="off">`;
  const lines = (name: string) => (attributes: Html) => html`<textarea ${attributes} rows="3" cols="40">${v[name] ?? ''}</textarea>`;
  const yesNo = (name: string) => (attributes: Html) =>
    html`<select ${attributes}>${options(['', 'yes', 'no'], v[name] ?? '', (value) => t(`policies.condition.${value || 'any'}` as MessageKey))}</select>`;
  const unshown = Object.entries(state.refused ?? {}).filter(([name]) => !(name in v));
  return html`${state.refused ? html`<p class="error" role="alert">${t('policies.error.form')}${unshown.map(([name, message]) => html` ${name}: ${message}`)}</p>` : null}
${state.reason ? html`<p class="error" role="alert">${t('policies.error.refused', { reason: state.reason })}</p>` : null}
${csrfField(request)}
${commandField(request, state, 'name', 'policies.field.name', (attributes) => html`<input type="text" ${attributes} value="${v.name ?? ''}" autocomplete="off" required>`)}
${commandField(request, state, 'description', 'policies.field.description', lines('description'))}
${scope}
${commandField(request, state, 'mode', 'policies.field.mode', (attributes) => html`<select ${attributes}>${options(POLICY_MODES, v.mode ?? '', (mode) => modeText(request, mode))}</select>`, 'policies.field.mode.hint')}
${commandField(request, state, 'action', 'policies.field.action', (attributes) => html`<select ${attributes}>${options(POLICY_ACTIONS, v.action ?? '', (action) => actionText(request, action))}</select>`)}
${commandField(request, state, 'priority', 'policies.field.priority', input('priority'), 'policies.field.priority.hint')}
<fieldset><legend>${t('policies.match')}</legend>
<p class="hint">${t('policies.match.hint')}</p>
${commandField(request, state, 'match.origin', 'policies.match.origin', (attributes) => html`<select ${attributes}>${options(['', 'first_party', 'third_party', 'inline', 'any'], v['match.origin'] ?? '', (origin) => t(`policies.origin.${origin || 'unset'}` as MessageKey))}</select>`)}
${MATCH_LISTS.map((key) => commandField(request, state, `match.${key}`, `policies.match.${key}` as MessageKey, lines(`match.${key}`)))}
</fieldset>
<fieldset><legend>${t('policies.conditions')}</legend>
${NUMBER_CONDITIONS.map((key) => commandField(request, state, `conditions.${key}`, `policies.condition.${key}` as MessageKey, input(`conditions.${key}`)))}
${YES_NO_CONDITIONS.map((key) => commandField(request, state, `conditions.${key}`, `policies.condition.${key}` as MessageKey, yesNo(`conditions.${key}`)))}
</fieldset>
${commandField(request, state, 'justification_template', 'policies.field.template', lines('justification_template'), 'policies.field.template.hint')}
${commandField(request, state, 'expires_days', 'policies.field.expires', input('expires_days'), 'policies.field.expires.hint')}
<div class="choice"><input type="checkbox" id="active" name="active" value="on"${v.active === 'on' ? html` checked` : ''}> <label for="active">${t('policies.field.active')}</label></div>`;
}

/** The creation form: the scopes offered are those the person may create a policy for. */
export function newPolicyPage(request: DashboardRequest, state: CommandFormState, scopes: Array<StoreChoice | null>, stores: StoreChoice[]): Html {
  const { t } = request;
  const choices = scopes.map((store) => {
    const value = store ? store._id : ORGANIZATION_WIDE;
    return html`<option value="${value}"${state.values.store_id === value ? html` selected` : ''}>${scopeLabel(request, store ? store._id : null, stores)}</option>`;
  });
  const scope = commandField(request, state, 'store_id', 'policies.field.scope', (attributes) => html`<select ${attributes}>${choices}</select>`, 'policies.field.scope.hint');
  return layout(
    request,
    t('policies.new'),
    html`<form method="post" action="${POLICIES_PAGE}" novalidate>
${policyFields(request, state, scope)}
<p><button type="submit">${t('policies.create')}</button> <a href="${POLICIES_PAGE}">${t('policies.cancel')}</a></p>
</form>`,
  );
}

export interface PolicyView {
  policy: PolicyDocument;
  stores: StoreChoice[];
  /** Whether the person may change it (policyRequirement). */
  manages: boolean;
  state: CommandFormState;
  /** The store chosen for a simulation, and what the command said of it. */
  runStore?: string;
  runRefusal?: string;
}

/** The simulation's store: a store policy's own, or a choice among the organization's stores. */
function runStoreField(request: DashboardRequest, view: PolicyView): Html {
  const { t } = request;
  if (view.policy.store_id) return html`<input type="hidden" name="store_id" value="${view.policy.store_id}">`;
  const stores = view.stores.map((store) => html`<option value="${store._id}"${store._id === view.runStore ? html` selected` : ''}>${store.name} (${store.domain})</option>`);
  return html`<label for="run-store_id">${t('policies.run.store')}</label>
${view.runRefusal ? html`<p class="error" id="run-error">${view.runRefusal}</p>` : null}
<select id="run-store_id" name="store_id"${view.runRefusal ? html` aria-invalid="true" aria-describedby="run-error"` : ''}>${stores}</select>`;
}

function readOnlyPolicy(request: DashboardRequest, policy: PolicyDocument): Html {
  const { t } = request;
  const match = Object.entries(policy.match).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  const conditions = Object.entries(policy.conditions).map(([key, value]) => `${key}: ${String(value)}`);
  return html`<p>${t('policies.read-only')}</p>
<dl>
<dt>${t('policies.field.mode')}</dt><dd>${modeText(request, policy.mode)}</dd>
<dt>${t('policies.field.action')}</dt><dd>${actionText(request, policy.action)}</dd>
<dt>${t('policies.field.priority')}</dt><dd>${policy.priority}</dd>
<dt>${t('policies.match')}</dt><dd>${match.length ? match.join('; ') : t('policies.match.any')}</dd>
<dt>${t('policies.conditions')}</dt><dd>${conditions.length ? conditions.join('; ') : '—'}</dd>
<dt>${t('policies.field.template')}</dt><dd>${policy.justification_template ?? '—'}</dd>
<dt>${t('policies.field.active')}</dt><dd>${t(policy.active ? 'policies.active.yes' : 'policies.active.no')}</dd>
</dl>`;
}

/** One policy: its version, its settings (a form for those who change it), and a simulation on a store. */
export function policyPage(request: DashboardRequest, view: PolicyView): Html {
  const { t } = request;
  const { policy } = view;
  const zone = storeZone(view.stores, policy.store_id);
  const scope = html`<p><strong>${t('policies.field.scope')}:</strong> ${scopeLabel(request, policy.store_id, view.stores)}</p>`;
  const settings = view.manages
    ? html`<form method="post" action="${policyPath(policy._id)}" novalidate>
${policyFields(request, view.state, scope)}
<p><button type="submit">${t('policies.save', { version: policy.version })}</button> <a href="${POLICIES_PAGE}">${t('policies.cancel')}</a></p>
</form>`
    : html`${scope}${readOnlyPolicy(request, policy)}`;
  return layout(
    request,
    t('policies.policy.title', { name: policy.name }),
    html`<p id="policy-version">${t('policies.version', { version: policy.version })} · ${t('policies.updated-at')} ${time(request, policy.updated_at, zone)}${policy.is_default ? html` · ${t('policies.default')}` : null}</p>
<p class="hint">${t('policies.version.hint')}</p>
${settings}
<section aria-labelledby="simulate-title"><h2 id="simulate-title">${t('policies.simulate.title')}</h2>
<p>${t('policies.simulate.intro')}</p>
<form method="post" action="${policyPath(policy._id, '/simulate')}">
${csrfField(request)}
${runStoreField(request, view)}
<p><button type="submit">${t('policies.simulate')}</button></p>
</form>
</section>
<p><a href="${POLICIES_PAGE}">${t('policies.back')}</a></p>`,
  );
}

function runTable(request: DashboardRequest, id: string, title: MessageKey, items: PolicyRunItem[]): Html {
  const { t } = request;
  const headings = (['policies.run.column.script', 'policies.run.column.type', 'policies.run.column.category', 'policies.run.column.status'] as const).map((key) => html`<th scope="col">${t(key)}</th>`);
  const rows = items.map(
    (item) => html`<tr>
<td><a href="${scriptPath(item.id)}">${item.src}</a></td>
<td>${item.type ? t(`script.type.${item.type}` as MessageKey) : '—'}</td>
<td>${item.category ?? '—'}</td>
<td>${t(`script.status.${item.status}` as MessageKey)}</td>
</tr>`,
  );
  return html`<section aria-labelledby="${id}-title"><h2 id="${id}-title">${t(title, { count: items.length })}</h2>
${items.length ? html`<table id="${id}"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>` : html`<p>${t('policies.run.none')}</p>`}
</section>`;
}

/** What Apply would do on the store, in the command's three lists; Apply itself for those who may decide there. */
export function simulationPage(request: DashboardRequest, policy: PolicyDocument, store: StoreChoice | undefined, result: PolicySimulation, mayApply: boolean): Html {
  const { t } = request;
  const storeName = store ? `${store.name} (${store.domain})` : result.store_id;
  return layout(
    request,
    t('policies.simulation.title', { name: policy.name }),
    html`<p>${t('policies.simulation.intro', { store: storeName, version: policy.version })}</p>
${runTable(request, 'would-authorize', 'policies.run.authorize', result.would_authorize)}
${runTable(request, 'would-block', 'policies.run.block', result.would_block)}
${runTable(request, 'would-review', 'policies.run.review', result.would_review)}
<p>${t('policies.run.unchanged', { count: result.unchanged })}</p>
${
  mayApply
    ? html`<form method="post" action="${policyPath(policy._id, '/apply')}">
${csrfField(request)}
<input type="hidden" name="store_id" value="${result.store_id}">
<p class="hint">${t('policies.apply.hint')}</p>
<p><button type="submit">${t('policies.apply', { store: storeName })}</button></p>
</form>`
    : html`<p>${t('policies.apply.not-yours')}</p>`
}
<p><a href="${policyPath(policy._id)}">${t('policies.back-to', { name: policy.name })}</a></p>`,
  );
}
