import { ALERT_SEVERITIES, CHANNEL_FORMATS, SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_NAME_MAX, WEBHOOK_URL_MAX, type ChannelResource } from '@pss/contracts';
import type { DeliveryRow } from '@pss/dashboard-reads';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { eventField, type WebhookField, type WebhookFormValues } from '../webhooks/webhook-form';
import { cursorPages } from './cursor-pages';
import { scopeLabel, scopeOptions, storeZone, type StoreChoice } from './email-channels';
import { csrfField, layout, time } from './layout';

export const WEBHOOKS = dashboardPath('/webhooks');
export const NEW_WEBHOOK = dashboardPath('/webhooks/new');
export const webhookPath = (id: string, action = ''): string => dashboardPath(`/webhooks/${encodeURIComponent(id)}${action}`);

/** What the form shows: the values as typed and what the command refused, in its words (per field) or the page's. */
export interface WebhookFormState {
  values: WebhookFormValues;
  refused?: Partial<Record<WebhookField, string>>;
  /** A refusal about no field (a suspended store, the channel limit). */
  reason?: string;
}

/** A page of the list, by GET /webhooks's cursor. */
export interface WebhookListView {
  webhooks: ChannelResource[];
  nextCursor: string | null;
  /** The address carried a cursor this list never gave: this is the first page. */
  staleCursor: boolean;
  canCreate: boolean;
}

const eventsText = (request: DashboardRequest, events: string[] | null): Html =>
  events?.length ? html`${events.map((event, index) => html`${index ? ', ' : ''}<code>${event}</code>`)}` : html`${request.t('webhooks.events.all')}`;

/** The organization's webhooks, newest first; `canCreate` shows the way to a new one to those who may make one. */
export function webhookListPage(request: DashboardRequest, view: WebhookListView, stores: StoreChoice[]): Html {
  const { t } = request;
  const rows = view.webhooks.map(
    (webhook) => html`<tr>
<td><a href="${webhookPath(webhook.id)}">${webhook.name}</a></td>
<td><code>${webhook.url}</code></td>
<td>${scopeLabel(request, webhook.store_id, stores)}</td>
<td>${eventsText(request, webhook.events)}</td>
<td>${t(webhook.active ? 'channels.status.active' : 'channels.status.inactive')}</td>
<td>${webhook.last_used_at ? time(request, webhook.last_used_at, storeZone(stores, webhook.store_id)) : t('channels.never')}</td>
<td><a href="${webhookPath(webhook.id, '/deliveries')}" aria-label="${t('channels.deliveries-of', { name: webhook.name })}">${t('channels.deliveries')}</a></td>
</tr>`,
  );
  const headings = (['webhooks.name', 'webhooks.url', 'channels.scope', 'webhooks.events', 'channels.status', 'channels.last-used', 'channels.deliveries'] as const).map(
    (key) => html`<th scope="col">${t(key)}</th>`,
  );
  const next = view.nextCursor ? `${WEBHOOKS}?cursor=${encodeURIComponent(view.nextCursor)}` : null;
  return layout(
    request,
    t('webhooks.title'),
    html`<p>${t('webhooks.intro')}</p>
${view.staleCursor ? html`<p class="error" role="alert">${t('webhooks.stale-cursor')}</p>` : null}
${view.canCreate ? html`<p><a class="button" href="${NEW_WEBHOOK}">${t('webhooks.new')}</a></p>` : null}
${view.webhooks.length ? html`<table id="webhooks"><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>` : html`<p>${t('webhooks.none')}</p>`}
${cursorPages(request, { first: request.query.cursor ? WEBHOOKS : null, next }, { first: 'webhooks.first-page', next: 'webhooks.next-page', label: 'webhooks.pages' })}`,
  );
}

/** A refused field's words, tied to its control by `aria-describedby`. */
const fieldError = (state: WebhookFormState, field: WebhookField): Html | null =>
  state.refused?.[field] ? html`<p class="error" id="${field}-error">${state.refused[field]}</p>` : null;

function described(state: WebhookFormState, field: WebhookField, hint?: string): Html {
  const refused = state.refused?.[field] !== undefined;
  const ids = [hint, refused ? `${field}-error` : undefined].filter(Boolean);
  return html`${refused ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
}

const selected = (chosen: boolean): Html | string => (chosen ? html` selected` : '');
const checked = (chosen: boolean): Html | string => (chosen ? html` checked` : '');

/** The settings both forms share; `fixed` is what only creation chooses (scope and format), or how an edit shows them. */
function webhookFields(request: DashboardRequest, state: WebhookFormState, fixed: Html): Html {
  const { t } = request;
  const { values } = state;
  const severities = ALERT_SEVERITIES.map((severity) => html`<option value="${severity}"${selected(values.min_severity === severity)}>${t(`severity.${severity}` as MessageKey)}</option>`);
  const events = SUBSCRIBABLE_EVENT_TYPES.map(
    (event) => html`<div class="choice"><input type="checkbox" id="${eventField(event)}" name="${eventField(event)}" value="on"${checked(values.events.includes(event))}> <label for="${eventField(event)}"><code>${event}</code></label></div>`,
  );
  return html`${state.refused ? html`<p class="error" role="alert">${t('webhooks.error.form')}</p>` : null}
${state.reason ? html`<p class="error" role="alert">${t('webhooks.error.refused', { reason: state.reason })}</p>` : null}
${csrfField(request)}
<label for="url">${t('webhooks.url')}</label>
<p class="hint" id="url-hint">${t('webhooks.url.hint')}</p>
${fieldError(state, 'url')}
<input type="url" id="url" name="url" maxlength="${WEBHOOK_URL_MAX}" value="${values.url}" autocomplete="off" required${described(state, 'url', 'url-hint')}>
<label for="name">${t('webhooks.name')}</label>
<p class="hint" id="name-hint">${t('webhooks.name.hint')}</p>
${fieldError(state, 'name')}
<input type="text" id="name" name="name" maxlength="${WEBHOOK_NAME_MAX}" value="${values.name}" autocomplete="off"${described(state, 'name', 'name-hint')}>
${fixed}
<fieldset${described(state, 'events', 'events-hint')}><legend>${t('webhooks.events')}</legend>
<p class="hint" id="events-hint">${t('webhooks.events.hint')}</p>
${fieldError(state, 'events')}
${events}</fieldset>
<label for="min_severity">${t('channels.min-severity')}</label>
${fieldError(state, 'min_severity')}
<select id="min_severity" name="min_severity"${described(state, 'min_severity')}>${severities}</select>
<div class="choice"><input type="checkbox" id="active" name="active" value="on"${checked(values.active)}> <label for="active">${t('channels.active')}</label></div>`;
}

/** The creation form: the scopes offered are those the person may create a webhook for. */
export function newWebhookPage(request: DashboardRequest, state: WebhookFormState, scopes: Array<StoreChoice | null>, stores: StoreChoice[]): Html {
  const { t } = request;
  const formats = CHANNEL_FORMATS.map((format) => html`<option value="${format}"${selected(state.values.format === format)}>${t(`webhooks.format.${format}` as MessageKey)}</option>`);
  const fixed = html`<label for="store_id">${t('channels.scope')}</label>
<p class="hint" id="scope-hint">${t('webhooks.fixed.hint')}</p>
${fieldError(state, 'store_id')}
<select id="store_id" name="store_id" aria-describedby="scope-hint">${scopeOptions(request, scopes, stores, state.values.store_id)}</select>
<label for="format">${t('webhooks.format')}</label>
${fieldError(state, 'format')}
<select id="format" name="format" aria-describedby="scope-hint">${formats}</select>`;
  return layout(
    request,
    t('webhooks.new'),
    html`<p>${t('webhooks.intro')}</p>
<form method="post" action="${WEBHOOKS}" novalidate>
${webhookFields(request, state, fixed)}
<p><button type="submit">${t('webhooks.create')}</button> <a href="${WEBHOOKS}">${t('channels.cancel')}</a></p>
</form>`,
  );
}

/** The signing secret, on the creation's answer itself and nowhere else: the service keeps it sealed and never shows it again. */
export function createdWebhookPage(request: DashboardRequest, webhook: ChannelResource, secret: string): Html {
  const { t } = request;
  return layout(
    request,
    t('webhooks.created.title'),
    html`<p>${t('webhooks.created.intro', { name: webhook.name })}</p>
<p class="secret"><code id="webhook-secret">${secret}</code></p>
<p><button type="button" class="secondary" data-copy="webhook-secret" data-copied="${t('copy.done')}" data-needs-script hidden>${t('webhooks.created.copy')}</button></p>
<p><a href="${webhookPath(webhook.id)}">${t('webhooks.created.done')}</a></p>`,
  );
}

/** What the last test answered: when, the outcome, the status code and how long it took (from its delivery). */
function lastTest(request: DashboardRequest, test: DeliveryRow | null, timeZone: string | undefined): Html {
  const { t } = request;
  if (!test) return html`<p>${t('webhooks.test.never')}</p>`;
  return html`<dl id="last-test">
<dt>${t('webhooks.test.at')}</dt><dd>${time(request, test.time, timeZone)}</dd>
<dt>${t('deliveries.outcome')}</dt><dd>${t(`outcome.${test.outcome}` as MessageKey)}${test.error ? html` <code>${test.error}</code>` : null}</dd>
<dt>${t('deliveries.status-code')}</dt><dd>${test.status_code ?? '—'}</dd>
<dt>${t('deliveries.duration')}</dt><dd>${test.duration_ms === null ? '—' : t('deliveries.duration-ms', { ms: test.duration_ms })}</dd>
</dl>`;
}

/**
 * One webhook: its settings, a test with what the last one answered, and deletion for those who manage it; the
 * settings only, read-only, for anyone else.
 */
export function webhookPage(request: DashboardRequest, webhook: ChannelResource, state: WebhookFormState, stores: StoreChoice[], manages: boolean, test: DeliveryRow | null): Html {
  const { t } = request;
  const title = t('webhooks.edit.title', { name: webhook.name });
  const zone = storeZone(stores, webhook.store_id);
  const deliveries = html`<p><a href="${webhookPath(webhook.id, '/deliveries')}">${t('channels.deliveries-of', { name: webhook.name })}</a></p>`;
  const fixed = html`<p><strong>${t('channels.scope')}:</strong> ${scopeLabel(request, webhook.store_id, stores)}</p>
<p><strong>${t('webhooks.format')}:</strong> ${t(`webhooks.format.${webhook.format ?? 'json'}` as MessageKey)}</p>`;
  const testSection = html`<section aria-labelledby="test-title"><h2 id="test-title">${t('webhooks.test.title')}</h2>
<p>${t('webhooks.test.intro')}</p>
${lastTest(request, test, zone)}
${manages ? html`<form method="post" action="${webhookPath(webhook.id, '/test')}">${csrfField(request)}<button type="submit">${t('webhooks.test')}</button></form>` : null}
</section>`;
  if (!manages) {
    return layout(
      request,
      title,
      html`<p>${t('webhooks.read-only')}</p>${fixed}
<dl><dt>${t('webhooks.url')}</dt><dd><code>${webhook.url}</code></dd>
<dt>${t('webhooks.events')}</dt><dd>${eventsText(request, webhook.events)}</dd>
<dt>${t('channels.min-severity')}</dt><dd>${t(`severity.${webhook.min_severity}` as MessageKey)}</dd>
<dt>${t('channels.status')}</dt><dd>${t(webhook.active ? 'channels.status.active' : 'channels.status.inactive')}</dd></dl>${deliveries}${testSection}`,
    );
  }
  return layout(
    request,
    title,
    html`${deliveries}
<form method="post" action="${webhookPath(webhook.id)}" novalidate>
${webhookFields(request, state, fixed)}
<p><button type="submit">${t('channels.save')}</button> <a href="${WEBHOOKS}">${t('channels.cancel')}</a></p>
</form>
${testSection}
<section aria-labelledby="delete-title"><h2 id="delete-title">${t('webhooks.delete.title')}</h2>
<p>${t('webhooks.delete.intro')}</p>
<form method="post" action="${webhookPath(webhook.id, '/delete')}">${csrfField(request)}<button type="submit" class="secondary">${t('webhooks.delete')}</button></form>
</section>`,
  );
}
