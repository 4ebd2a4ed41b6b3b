import { validationError, type ErrorDetail } from '@pss/kernel';
import { ALERT_SEVERITIES } from '../read-models/alert';
import { CHANNEL_FORMATS, SUBSCRIBABLE_EVENT_TYPES } from '../read-models/channel';
import { WEBHOOK_NAME_MAX, WEBHOOK_URL_MAX, type CreateChannelInput } from './notifier';

/**
 * What is wrong with a webhook URL, or null: an absolute https URL with a host (spec: https only), without a user
 * name or password (the URL is shown by every read of the channel, the secret never is). Which addresses it may
 * reach is decided when sending. The gateway's body check and the channel commands say it in these words.
 */
export function webhookUrlProblem(value: unknown, field = 'url'): string | null {
  const url = typeof value === 'string' && value.length <= WEBHOOK_URL_MAX && URL.canParse(value) ? new URL(value) : undefined;
  if (url && (url.username !== '' || url.password !== '')) return `${field} must not carry a user name or password; deliveries are authenticated by their signature`;
  if (!url || url.protocol !== 'https:' || url.hostname.length === 0) return `${field} must be an https URL of at most ${WEBHOOK_URL_MAX} characters`;
  return null;
}

export const WEBHOOK_EVENTS_MESSAGE = `events must be null or a list of: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`;

/**
 * A webhook's settings as the channel commands take them (POST /webhooks's body or the dashboard's form), refused
 * with one detail per field (400 `validation_error`). Absent fields are left as they are, except the URL on
 * creation. The gateway checks its body first with the same rules; the dashboard relies on this one.
 */
export function assertWebhookSettings(input: Partial<CreateChannelInput>, creating: boolean): void {
  const details: ErrorDetail[] = [];
  const problem = (field: string, message: string | null) => message && details.push({ field, message });
  if (creating || input.url !== undefined) problem('url', webhookUrlProblem(input.url));
  if (input.name !== undefined) {
    // Blank only when empty, as the gateway's body check has it: a name of spaces is the client's choice.
    problem('name', typeof input.name !== 'string' || input.name === '' ? 'name should not be empty' : null);
    problem('name', typeof input.name === 'string' && input.name.length > WEBHOOK_NAME_MAX ? `name must be shorter than or equal to ${WEBHOOK_NAME_MAX} characters` : null);
  }
  const events = input.events;
  problem('events', events === undefined || events === null || (Array.isArray(events) && events.every((event) => SUBSCRIBABLE_EVENT_TYPES.includes(event))) ? null : WEBHOOK_EVENTS_MESSAGE);
  if (input.min_severity !== undefined && !(ALERT_SEVERITIES as readonly string[]).includes(input.min_severity)) {
    problem('min_severity', `min_severity must be one of the following values: ${ALERT_SEVERITIES.join(', ')}`);
  }
  if (input.format !== undefined && !(CHANNEL_FORMATS as readonly string[]).includes(input.format)) {
    problem('format', `format must be one of the following values: ${CHANNEL_FORMATS.join(', ')}`);
  }
  if (input.active !== undefined && typeof input.active !== 'boolean') problem('active', 'active must be a boolean value');
  if (details.length) throw validationError(details);
}
