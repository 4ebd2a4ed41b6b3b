import { API_CHANNEL_TYPES, type ChannelResource } from '@pss/contracts';
import type { DeliveryRow } from '@pss/dashboard-reads';
import { knownDeliveryError } from '../email-channels/delivery-errors';
import { knownWebhookError } from '../webhooks/attempt-errors';
import { html, type Html } from '../html/html';
import type { MessageKey, Translate } from '../i18n/catalogue';
import type { DashboardRequest } from '../http/dashboard-route';
import { channelPath } from './email-channels';
import { layout, time } from './layout';
import { webhookPath } from './webhooks';

const COLUMNS: MessageKey[] = [
  'deliveries.time',
  'deliveries.event',
  'deliveries.event-id',
  'deliveries.id',
  'deliveries.attempts',
  'deliveries.outcome',
  'deliveries.status-code',
  'deliveries.duration',
  'deliveries.next-retry',
];

/** Nothing to show (an e-mail has no HTTP status, a pending delivery no duration yet): a dash, not an empty cell. */
const NONE = '—';

/** A channel the API manages (a webhook, Slack or Teams) rather than one of the dashboard's e-mail channels. */
const isWebhook = (channel: ChannelResource): boolean => API_CHANNEL_TYPES.includes(channel.type);

/** A failed delivery's error: what it means in the person's language when it is a known outcome, then the transport's own words. */
const errorDetail = (t: Translate, channel: ChannelResource, error: string): Html => {
  // A webhook's error is one of the notifier's fixed words or an HTTP status; an e-mail's, the mail transport's message.
  const known = isWebhook(channel) ? knownWebhookError(t, error) : knownDeliveryError(t, error);
  return known ? html`${known} <code>${error}</code>` : html`<code>${error}</code>`;
};

/**
 * A channel's last 50 deliveries of 90 days, newest first, dated in `timeZone` (its store's). There is no resend
 * button, and the page says why: the spec has none.
 */
export function deliveriesPage(request: DashboardRequest, channel: ChannelResource, deliveries: DeliveryRow[], timeZone?: string): Html {
  const { t } = request;
  // The same history for e-mail channels and webhooks; only the way back and how to check the channel differ.
  const webhook = isWebhook(channel);
  const rows = deliveries.map(
    (delivery) => html`<tr>
<td>${time(request, delivery.time, timeZone)}</td>
<td><code>${delivery.event_type}</code></td>
<td><code>${delivery.event_id}</code></td>
<td><code>${delivery.delivery_id}</code></td>
<td>${delivery.attempts}</td>
<td>${t(`outcome.${delivery.outcome}` as MessageKey)}${delivery.error ? html`<br><span class="hint">${errorDetail(t, channel, delivery.error)}</span>` : null}</td>
<td>${delivery.status_code ?? NONE}</td>
<td>${delivery.duration_ms === null ? NONE : t('deliveries.duration-ms', { ms: delivery.duration_ms })}</td>
<td>${delivery.next_retry_at ? time(request, delivery.next_retry_at, timeZone) : NONE}</td>
</tr>`,
  );
  const table = html`<table id="deliveries"><thead><tr>${COLUMNS.map((key) => html`<th scope="col">${t(key)}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
  return layout(
    request,
    t('deliveries.title', { name: channel.name }),
    html`<p>${t('deliveries.intro')}</p>
<p class="notice">${t(webhook ? 'webhooks.deliveries.no-resend' : 'deliveries.no-resend')}</p>
${deliveries.length ? table : html`<p>${t('deliveries.none')}</p>`}
<p><a href="${webhook ? webhookPath(channel.id) : channelPath(channel.id)}">${t('deliveries.back')}</a></p>`,
  );
}
