import type { InstallSnippets, StoreDocument } from '@pss/contracts';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import type { InstallCheckView } from '../stores/install-check-view';
import type { NewStoreValues, SdkSettingsValues } from '../stores/store-form';
import { csrfField, layout, time } from './layout';

export const NEW_STORE = dashboardPath('/stores/new');
export const STORES_PATH = dashboardPath('/stores');
export const storePath = (id: string, page: 'install' | 'install-check.json' | 'settings' | 'sdk' | 'developer-mode' | 'rotate-key' | 'suspend'): string =>
  dashboardPath(`/stores/${encodeURIComponent(id)}/${page}`);

/** A form's state: the values as typed, the command's messages per field, or its refusal about no field. */
export interface FormState<Values> {
  values: Values;
  refused?: Record<string, string[]>;
  reason?: string;
}

/** A field's messages from the command, tied to it by `aria-describedby`, and the attributes that tie them. */
function fieldErrors(state: FormState<unknown>, field: string): Html | null {
  const messages = state.refused?.[field];
  return messages ? html`<p class="error" id="${field}-error">${messages.join(' ')}</p>` : null;
}

function described(state: FormState<unknown>, field: string, hint?: string): Html {
  const refused = state.refused?.[field] !== undefined;
  const ids = [hint, refused ? `${field}-error` : undefined].filter(Boolean);
  return html`${refused ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
}

/** What a refused form says on top: the command's refusal about no field, or that fields are marked. */
function refusal(request: DashboardRequest, state: FormState<unknown>): Html | null {
  if (state.reason) return html`<p class="error" role="alert">${request.t('stores.refused', { reason: state.reason })}</p>`;
  const unplaced = state.refused?.form;
  if (state.refused) return html`<p class="error" role="alert">${request.t('stores.error.form')}${unplaced ? html` ${unplaced.join(' ')}` : ''}</p>`;
  return null;
}

const options = (request: DashboardRequest, values: readonly string[], chosen: string, prefix: string): Html[] =>
  values.map((value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${request.t(`${prefix}.${value}` as MessageKey)}</option>`);

/** The new store form (POST /stores's fields): domain, environment, name, payment pages, recipients. */
export function newStorePage(request: DashboardRequest, state: FormState<NewStoreValues>): Html {
  const { t } = request;
  const { values } = state;
  const textField = (field: 'domain' | 'name', required: boolean) => html`<label for="${field}">${t(`stores.field.${field}` as MessageKey)}</label>
<p class="hint" id="${field}-hint">${t(`stores.field.${field}.hint` as MessageKey)}</p>
${fieldErrors(state, field)}
<input type="text" id="${field}" name="${field}" value="${values[field]}" autocomplete="off"${required ? html` required` : ''}${described(state, field, `${field}-hint`)}>`;
  const lines = (field: 'payment_pages' | 'recipients') => html`<label for="${field}">${t(`stores.field.${field}` as MessageKey)}</label>
<p class="hint" id="${field}-hint">${t(`stores.field.${field}.hint` as MessageKey)}</p>
${fieldErrors(state, field)}
<textarea id="${field}" name="${field}" rows="4" cols="40" autocomplete="off"${described(state, field, `${field}-hint`)}>${values[field]}</textarea>`;
  return layout(
    request,
    t('stores.new.title'),
    html`<p>${t('stores.new.intro')}</p>
${refusal(request, state)}
<form method="post" action="${STORES_PATH}" novalidate>
${csrfField(request)}
${textField('domain', true)}
<label for="environment">${t('stores.field.environment')}</label>
<p class="hint" id="environment-hint">${t('stores.field.environment.hint')}</p>
${fieldErrors(state, 'environment')}
<select id="environment" name="environment"${described(state, 'environment', 'environment-hint')}>${options(request, ['production', 'staging'], values.environment, 'stores.environment')}</select>
${textField('name', false)}
${lines('payment_pages')}
${lines('recipients')}
<p><button type="submit">${t('stores.new.create')}</button> <a href="${dashboardPath('')}">${t('stores.cancel')}</a></p>
</form>`,
  );
}

const SNIPPET_KINDS = ['html', 'nextjs', 'nuxt', 'wordpress'] as const;

/** The live check's content, rendered first by the server and then by the page's script from the same JSON. */
function installCheck(request: DashboardRequest, store: StoreDocument, view: InstallCheckView): Html {
  const { t } = request;
  return html`<section aria-labelledby="check-title" class="install-check" data-install-check="${storePath(store._id, 'install-check.json')}">
<h2 id="check-title">${t('stores.check.title')}</h2>
<p>${t('stores.check.intro')}</p>
<p id="install-status" role="status" class="${view.installed ? 'notice' : 'waiting'}">${view.status}</p>
<h3 id="scripts-title">${t('stores.check.scripts')}</h3>
<ul id="install-scripts" aria-labelledby="scripts-title">${view.scripts.map((script) => html`<li><code>${script.src}</code> <span>${script.status}</span></li>`)}</ul>
<div id="install-causes-block"${view.causes.length ? '' : html` hidden`}>
<h3 id="causes-title">${t('stores.check.causes')}</h3>
<ul id="install-causes" aria-labelledby="causes-title">${view.causes.map((cause) => html`<li class="${cause.seen ? 'seen' : 'unseen'}">${cause.text}</li>`)}</ul>
</div>
</section>`;
}

/** The store's install page: the four snippets with copy buttons, then the live check. */
export function installPage(request: DashboardRequest, store: StoreDocument, snippets: InstallSnippets, view: InstallCheckView): Html {
  const { t } = request;
  const blocks = SNIPPET_KINDS.map(
    (kind) => html`<section aria-labelledby="snippet-${kind}-title">
<h3 id="snippet-${kind}-title">${t(`stores.snippet.${kind}` as MessageKey)}</h3>
<pre class="snippet" tabindex="0"><code id="snippet-${kind}">${snippets[kind]}</code></pre>
<p><button type="button" class="secondary" data-copy="snippet-${kind}" data-copied="${t('copy.done')}" data-needs-script hidden>${t(`stores.snippet.copy.${kind}` as MessageKey)}</button></p>
</section>`,
  );
  return layout(
    request,
    t('stores.install.title', { name: store.name }),
    html`<p>${t('stores.install.intro')}</p>
<p><a href="${storePath(store._id, 'settings')}">${t('stores.settings.link', { name: store.name })}</a></p>
<h2>${t('stores.install.snippets')}</h2>
${blocks}
${installCheck(request, store, view)}`,
  );
}

/** A store's settings: the SDK configuration, developer mode, the key, suspension; read-only for who may not change them. */
export function settingsPage(
  request: DashboardRequest,
  store: StoreDocument,
  state: FormState<SdkSettingsValues>,
  { manages, oldKeyValidUntil }: { manages: boolean; oldKeyValidUntil: string | null },
): Html {
  const { t } = request;
  const { values } = state;
  const config = store.sdk_config;
  const title = t('stores.settings.title', { name: store.name });
  const oldKey = oldKeyValidUntil ? html`<p>${t('stores.key.old-valid-until')} ${time(request, oldKeyValidUntil, store.timezone)}</p>` : null;
  const summary = html`<dl>
<dt>${t('stores.field.domain')}</dt><dd>${store.domain}</dd>
<dt>${t('stores.field.environment')}</dt><dd>${t(`stores.environment.${store.environment}` as MessageKey)}</dd>
<dt>${t('stores.status')}</dt><dd>${t(`stores.status.${store.status}` as MessageKey)}</dd>
<dt>${t('stores.key')}</dt><dd><code>${store.sdk_key}</code></dd>
</dl>${oldKey}
<p><a href="${storePath(store._id, 'install')}">${t('stores.install.link', { name: store.name })}</a></p>`;
  if (!manages) {
    return layout(
      request,
      title,
      html`<p>${t('stores.read-only')}</p>${summary}
<h2>${t('stores.sdk.title')}</h2>
<dl>${(['mode', 'calibration_seconds', 'overlay_check_interval_ms', 'installation_order_policy', 'release_channel'] as const).map(
        (field) => html`<dt>${t(`stores.sdk.${field}` as MessageKey)}</dt><dd>${String(config?.[field] ?? '')}</dd>`,
      )}
<dt>${t('stores.developer-mode')}</dt><dd>${t(config?.developer_mode ? 'stores.developer-mode.on' : 'stores.developer-mode.off')}</dd></dl>`,
    );
  }
  const number = (field: 'calibration_seconds' | 'overlay_check_interval_ms') => html`<label for="${field}">${t(`stores.sdk.${field}` as MessageKey)}</label>
<p class="hint" id="${field}-hint">${t(`stores.sdk.${field}.hint` as MessageKey)}</p>
${fieldErrors(state, field)}
<input type="text" inputmode="numeric" id="${field}" name="${field}" value="${values[field]}" autocomplete="off"${described(state, field, `${field}-hint`)}>`;
  const choice = (field: 'mode' | 'installation_order_policy' | 'release_channel', choices: readonly string[]) => html`<label for="${field}">${t(`stores.sdk.${field}` as MessageKey)}</label>
${fieldErrors(state, field)}
<select id="${field}" name="${field}"${described(state, field)}>${options(request, choices, values[field], `stores.sdk.${field}`)}</select>`;
  const developing = config?.developer_mode ?? false;
  return layout(
    request,
    title,
    html`${summary}
<section aria-labelledby="sdk-title"><h2 id="sdk-title">${t('stores.sdk.title')}</h2>
${refusal(request, state)}
<form method="post" action="${storePath(store._id, 'sdk')}" novalidate>
${csrfField(request)}
${choice('mode', ['monitor', 'block'])}
${number('calibration_seconds')}
${number('overlay_check_interval_ms')}
${choice('installation_order_policy', ['warn', 'silent'])}
${choice('release_channel', ['stable', 'latest'])}
<p><button type="submit">${t('stores.sdk.save')}</button></p>
</form></section>
<section aria-labelledby="developer-title"><h2 id="developer-title">${t('stores.developer-mode')}</h2>
<p>${t(developing ? 'stores.developer-mode.on.intro' : 'stores.developer-mode.off.intro')}</p>
<form method="post" action="${storePath(store._id, 'developer-mode')}">${csrfField(request)}<input type="hidden" name="developer_mode" value="${developing ? 'off' : 'on'}"><button type="submit" class="secondary">${t(developing ? 'stores.developer-mode.turn-off' : 'stores.developer-mode.turn-on')}</button></form>
</section>
<section aria-labelledby="key-title"><h2 id="key-title">${t('stores.key.rotate.title')}</h2>
<p>${t('stores.key.rotate.intro')}</p>
<form method="post" action="${storePath(store._id, 'rotate-key')}">${csrfField(request)}<button type="submit" class="secondary">${t('stores.key.rotate')}</button></form>
</section>
<section aria-labelledby="suspend-title"><h2 id="suspend-title">${t('stores.suspend.title')}</h2>
<p>${t('stores.suspend.intro')}</p>
<form method="post" action="${storePath(store._id, 'suspend')}">${csrfField(request)}
<div class="choice"><input type="checkbox" id="confirm" name="confirm" value="yes"> <label for="confirm">${t('stores.suspend.confirm', { domain: store.domain })}</label></div>
${fieldErrors(state, 'confirm')}
<p><button type="submit" class="secondary">${t('stores.suspend')}</button></p></form>
</section>`,
  );
}
