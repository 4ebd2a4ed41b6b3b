import { ALERT_SEVERITIES, EMAIL_CHANNEL_RECIPIENTS_MAX, WEBHOOK_NAME_MAX, type ChannelResource, type StoreDocument } from '@pss/contracts';
import { ORGANIZATION_WIDE, type ChannelField } from '../email-channels/email-channel-form';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { csrfField, layout, time } from './layout';

export const CHANNELS = dashboardPath('/channels');
export const NEW_CHANNEL = dashboardPath('/channels/new');
export const channelPath = (id: string, action = ''): string => dashboardPath(`/channels/${encodeURIComponent(id)}${action}`);

/** A store as the channel pages name it; its time zone dates its channels' deliveries. */
export type StoreChoice = Pick<StoreDocument, '_id' | 'name' | 'domain' | 'timezone'>;

export const storeZone = (stores: StoreChoice[], storeId: string | null): string | undefined => stores.find((store) => store._id === storeId)?.timezone;

/** What the form shows: the values as typed (recipients one per line) and what a refusal said. */
export interface ChannelFormState {
  values: { name: string; recipients: string; store_id: string; min_severity: string; active: boolean };
  /** The fields a validation error named. */
  refused?: ChannelField[];
  /** A refusal about no field (a suspended store, the channel limit), in the person's language when the dashboard knows it. */
  reason?: string;
}

export const blankChannelForm = (): ChannelFormState => ({ values: { name: '', recipients: '', store_id: ORGANIZATION_WIDE, min_severity: 'high', active: true } });

export const channelFormOf = (channel: ChannelResource): ChannelFormState => ({
  values: { name: channel.name, recipients: (channel.recipients ?? []).join('\n'), store_id: channel.store_id ?? ORGANIZATION_WIDE, min_severity: channel.min_severity, active: channel.active },
});

export function scopeLabel(request: DashboardRequest, storeId: string | null, stores: StoreChoice[]): string {
  if (storeId === null) return request.t('channels.scope.organization');
  const store = stores.find((candidate) => candidate._id === storeId);
  return request.t('channels.scope.store', { name: store ? `${store.name} (${store.domain})` : storeId });
}

/** A new channel's scope choices (null: the organization), `chosen` selected: e-mail channels and webhooks alike. */
export const scopeOptions = (request: DashboardRequest, scopes: Array<StoreChoice | null>, stores: StoreChoice[], chosen: string): Html[] =>
  scopes.map((store) => {
    const value = store ? store._id : ORGANIZATION_WIDE;
    return html`<option value="${value}"${chosen === value ? html` selected` : ''}>${scopeLabel(request, store ? store._id : null, stores)}</option>`;
  });

const column = (request: DashboardRequest, key: MessageKey): Html => html`<th scope="col">${request.t(key)}</th>`;

/** The organization's e-mail channels; `canCreate` shows the way to a new one to those who may make one. */
export function channelListPage(request: DashboardRequest, channels: ChannelResource[], stores: StoreChoice[], canCreate: boolean): Html {
  const { t } = request;
  const rows = channels.map(
    (channel) => html`<tr>
<td><a href="${channelPath(channel.id)}">${channel.name}</a></td>
<td>${scopeLabel(request, channel.store_id, stores)}</td>
<td>${(channel.recipients ?? []).map((address, index) => html`${index ? html`<br>` : ''}${address}`)}</td>
<td>${t(`severity.${channel.min_severity}` as MessageKey)}</td>
<td>${t(channel.active ? 'channels.status.active' : 'channels.status.inactive')}</td>
<td>${channel.last_used_at ? time(request, channel.last_used_at, storeZone(stores, channel.store_id)) : t('channels.never')}</td>
<td><a href="${channelPath(channel.id, '/deliveries')}" aria-label="${t('channels.deliveries-of', { name: channel.name })}">${t('channels.deliveries')}</a></td>
</tr>`,
  );
  const headings = (['channels.name', 'channels.scope', 'channels.recipients', 'channels.min-severity', 'channels.status', 'channels.last-used', 'channels.deliveries'] as const).map((key) => column(request, key));
  return layout(
    request,
    t('channels.title'),
    html`<p>${t('channels.intro')}</p>
${canCreate ? html`<p><a class="button" href="${NEW_CHANNEL}">${t('channels.new')}</a></p>` : null}
${channels.length ? html`<table><thead><tr>${headings}</tr></thead><tbody>${rows}</tbody></table>` : html`<p>${t('channels.none')}</p>`}`,
  );
}

/** A refused field's message, tied to its field by `aria-describedby`. */
const fieldError = (request: DashboardRequest, state: ChannelFormState, field: ChannelField): Html | null =>
  state.refused?.includes(field) ? html`<p class="error" id="${field}-error">${request.t(`channels.error.${field}` as MessageKey)}</p>` : null;

function described(state: ChannelFormState, field: ChannelField, hint?: string): Html {
  const refused = state.refused?.includes(field);
  const ids = [hint, refused ? `${field}-error` : undefined].filter(Boolean);
  return html`${refused ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
}

/** The settings both forms share; `scope` is the select on creation, the fixed scope's name on an edit. */
function channelFields(request: DashboardRequest, state: ChannelFormState, scope: Html): Html {
  const { t } = request;
  const { values } = state;
  const severities = ALERT_SEVERITIES.map(
    (severity) => html`<option value="${severity}"${values.min_severity === severity ? html` selected` : ''}>${t(`severity.${severity}` as MessageKey)}</option>`,
  );
  return html`${state.refused ? html`<p class="error" role="alert">${t('channels.error.form')}</p>` : null}
${state.reason ? html`<p class="error" role="alert">${t('channels.error.refused', { reason: state.reason })}</p>` : null}
${csrfField(request)}
<label for="name">${t('channels.name')}</label>
${fieldError(request, state, 'name')}
<input type="text" id="name" name="name" maxlength="${WEBHOOK_NAME_MAX}" value="${values.name}" autocomplete="off" required${described(state, 'name')}>
<label for="recipients">${t('channels.recipients')}</label>
<p class="hint" id="recipients-hint">${t('channels.recipients.hint')}</p>
${fieldError(request, state, 'recipients')}
<textarea id="recipients" name="recipients" rows="${EMAIL_CHANNEL_RECIPIENTS_MAX}" cols="40" autocomplete="off" required${described(state, 'recipients', 'recipients-hint')}>${values.recipients}</textarea>
${scope}
<label for="min_severity">${t('channels.min-severity')}</label>
${fieldError(request, state, 'min_severity')}
<select id="min_severity" name="min_severity"${described(state, 'min_severity')}>${severities}</select>
<div class="choice"><input type="checkbox" id="active" name="active" value="on"${values.active ? html` checked` : ''}> <label for="active">${t('channels.active')}</label></div>`;
}

/** The creation form: the scopes offered are those the person may create a channel for. */
export function newChannelPage(request: DashboardRequest, state: ChannelFormState, scopes: Array<StoreChoice | null>, stores: StoreChoice[]): Html {
  const { t } = request;
  const scope = html`<label for="store_id">${t('channels.scope')}</label>
<p class="hint" id="scope-hint">${t('channels.scope.hint')}</p>
<select id="store_id" name="store_id" aria-describedby="scope-hint">${scopeOptions(request, scopes, stores, state.values.store_id)}</select>`;
  return layout(
    request,
    t('channels.new'),
    html`<p>${t('channels.intro')}</p>
<form method="post" action="${CHANNELS}" novalidate>
${channelFields(request, state, scope)}
<p><button type="submit">${t('channels.create')}</button> <a href="${CHANNELS}">${t('channels.cancel')}</a></p>
</form>`,
  );
}

/**
 * One channel: its settings, a test and deletion for those who manage it; the settings only, read-only, for
 * anyone else.
 */
export function channelPage(request: DashboardRequest, channel: ChannelResource, state: ChannelFormState, stores: StoreChoice[], manages: boolean): Html {
  const { t } = request;
  const title = t('channels.edit.title', { name: channel.name });
  const deliveries = html`<p><a href="${channelPath(channel.id, '/deliveries')}">${t('channels.deliveries-of', { name: channel.name })}</a></p>`;
  const scope = html`<p><strong>${t('channels.scope')}:</strong> ${scopeLabel(request, channel.store_id, stores)}</p>`;
  if (!manages) {
    return layout(
      request,
      title,
      html`<p>${t('channels.read-only')}</p>${scope}
<dl><dt>${t('channels.recipients')}</dt><dd>${(channel.recipients ?? []).join(', ')}</dd>
<dt>${t('channels.min-severity')}</dt><dd>${t(`severity.${channel.min_severity}` as MessageKey)}</dd>
<dt>${t('channels.status')}</dt><dd>${t(channel.active ? 'channels.status.active' : 'channels.status.inactive')}</dd></dl>${deliveries}`,
    );
  }
  return layout(
    request,
    title,
    html`${deliveries}
<form method="post" action="${channelPath(channel.id)}" novalidate>
${channelFields(request, state, scope)}
<p><button type="submit">${t('channels.save')}</button> <a href="${CHANNELS}">${t('channels.cancel')}</a></p>
</form>
<section aria-labelledby="test-title"><h2 id="test-title">${t('channels.test.title')}</h2>
<p>${t('channels.test.intro')}</p>
<form method="post" action="${channelPath(channel.id, '/test')}">${csrfField(request)}<button type="submit">${t('channels.test')}</button></form>
</section>
<section aria-labelledby="delete-title"><h2 id="delete-title">${t('channels.delete.title')}</h2>
<p>${t('channels.delete.intro')}</p>
<form method="post" action="${channelPath(channel.id, '/delete')}">${csrfField(request)}<button type="submit" class="secondary">${t('channels.delete')}</button></form>
</section>`,
  );
}
