import { ALERT_SEVERITIES, EMAIL_EVENT_TYPES as EMAIL_EVENTS, type ChannelDocument, type WebhookEventType } from '@pss/contracts';
import type { WebhookEvent } from './webhook-event';

/** What a channel is filtered by. */
export type ChannelFilters = Pick<ChannelDocument, 'type' | 'store_id' | 'events' | 'min_severity' | 'active' | 'created_at'>;

/** min_severity applies to these only (spec, Events notes). */
const ALERT_EVENT_TYPES: ReadonlySet<WebhookEventType> = new Set(['alert.created', 'alert.resolved', 'integrity.changed', 'header.changed', 'sdk.silent']);

/** E-mail channels receive these only (spec, Events notes). */
const EMAIL_EVENT_TYPES: ReadonlySet<WebhookEventType> = new Set(EMAIL_EVENTS);

const rank = (severity: string): number => ALERT_SEVERITIES.indexOf(severity as (typeof ALERT_SEVERITIES)[number]);

/**
 * Whether a channel gets an event: a test ignores every filter (and `active`); otherwise the channel is active,
 * existed when the event happened (a consumer group reading the bus from its beginning sends no history),
 * is organization-wide or scoped to the event's store, lists the type in `events` (none listed: all), and for
 * alert events the severity is at least `min_severity`. E-mail channels only ever get alert.created,
 * report.ready and test. `script.authorized` and `script.blocked` may be listed but no event of theirs exists.
 */
export function wants(channel: ChannelFilters, event: WebhookEvent): boolean {
  const { type } = event.envelope;
  if (channel.type === 'email' && !EMAIL_EVENT_TYPES.has(type)) return false;
  if (type === 'test') return true;
  if (!channel.active || event.envelope.created_at < channel.created_at) return false;
  if (channel.store_id !== null && channel.store_id !== event.storeId) return false;
  if (channel.events?.length && !channel.events.includes(type)) return false;
  return !ALERT_EVENT_TYPES.has(type) || rank(event.severity) <= rank(channel.min_severity);
}
