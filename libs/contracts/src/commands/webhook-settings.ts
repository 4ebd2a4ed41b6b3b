import { validationError, type ErrorDetail } from '@pss/kernel';
import { ALERT_SEVERITIES } from '../read-models/alert';
import { CHANNEL_FORMATS, SUBSCRIBABLE_EVENT_TYPES } from '../read-models/channel';
import { refusalDetail, type FieldRefusal } from './field-refusals';
import { WEBHOOK_NAME_MAX, WEBHOOK_URL_MAX, type CreateChannelInput } from './notifier';

/** A webhook URL's refusals by reason, in the words of the field they are about (the gateway names its property). */
const URL_REFUSALS = {
  credentials: (field: string) => `${field} must not carry a user name or password; deliveries are authenticated by their signature`,
  https_url: (field: string) => `${field} must be an https URL of at most ${WEBHOOK_URL_MAX} characters`,
};

/**
 * What is wrong with a webhook URL, or null: an absolute https URL with a host (spec: https only), without a user
 * name or password (the URL is shown by every read of the channel, the secret never is). Which addresses it may
 * reach is decided when sending.
 */
function urlRefusal(value: unknown): keyof typeof URL_REFUSALS | null {
  const url = typeof value === 'string' && value.length <= WEBHOOK_URL_MAX && URL.canParse(value) ? new URL(value) : undefined;
  if (url && (url.username !== '' || url.password !== '')) return 'credentials';
  if (!url || url.protocol !== 'https:' || url.hostname.length === 0) return 'https_url';
  return null;
}

/** The gateway's body check and the channel commands say a URL's problem in these words. */
export function webhookUrlProblem(value: unknown, field = 'url'): string | null {
  const reason = urlRefusal(value);
  return reason && URL_REFUSALS[reason](field);
}

export const WEBHOOK_EVENTS_MESSAGE = `events must be null or a list of: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`;

/** What the channel commands refuse in a webhook's settings, by field and reason. */
export const WEBHOOK_SETTINGS_REFUSALS: readonly FieldRefusal[] = [
  { field: 'url', reason: 'credentials', message: URL_REFUSALS.credentials('url') },
  { field: 'url', reason: 'https_url', message: URL_REFUSALS.https_url('url'), params: { max: WEBHOOK_URL_MAX } },
  { field: 'name', reason: 'empty', message: 'name should not be empty' },
  { field: 'name', reason: 'too_long', message: `name must be shorter than or equal to ${WEBHOOK_NAME_MAX} characters`, params: { max: WEBHOOK_NAME_MAX } },
  { field: 'events', reason: 'event_types', message: WEBHOOK_EVENTS_MESSAGE, params: { values: SUBSCRIBABLE_EVENT_TYPES.join(', ') } },
  { field: 'min_severity', reason: 'one_of', message: `min_severity must be one of the following values: ${ALERT_SEVERITIES.join(', ')}`, params: { values: ALERT_SEVERITIES.join(', ') } },
  { field: 'format', reason: 'one_of', message: `format must be one of the following values: ${CHANNEL_FORMATS.join(', ')}`, params: { values: CHANNEL_FORMATS.join(', ') } },
  { field: 'active', reason: 'boolean', message: 'active must be a boolean value' },
];

/**
 * A webhook's settings as the channel commands take them (POST /webhooks's body or the dashboard's form), refused
 * with one detail per field (400 `validation_error`). Absent fields are left as they are, except the URL on
 * creation. The gateway checks its body first with the same rules; the dashboard relies on this one.
 */
export function assertWebhookSettings(input: Partial<CreateChannelInput>, creating: boolean): void {
  const details: ErrorDetail[] = [];
  const problem = (field: string, reason: string | null | false) => reason && details.push(refusalDetail(WEBHOOK_SETTINGS_REFUSALS, field, reason));
  if (creating || input.url !== undefined) problem('url', urlRefusal(input.url));
  if (input.name !== undefined) {
    // Blank only when empty, as the gateway's body check has it: a name of spaces is the client's choice.
    problem('name', (typeof input.name !== 'string' || input.name === '') && 'empty');
    problem('name', typeof input.name === 'string' && input.name.length > WEBHOOK_NAME_MAX && 'too_long');
  }
  const events = input.events;
  problem('events', !(events === undefined || events === null || (Array.isArray(events) && events.every((event) => SUBSCRIBABLE_EVENT_TYPES.includes(event)))) && 'event_types');
  problem('min_severity', input.min_severity !== undefined && !(ALERT_SEVERITIES as readonly string[]).includes(input.min_severity) && 'one_of');
  problem('format', input.format !== undefined && !(CHANNEL_FORMATS as readonly string[]).includes(input.format) && 'one_of');
  problem('active', input.active !== undefined && typeof input.active !== 'boolean' && 'boolean');
  if (details.length) throw validationError(details);
}
