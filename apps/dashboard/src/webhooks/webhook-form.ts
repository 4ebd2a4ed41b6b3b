import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_SETTINGS_REFUSALS, type AlertSeverity, type ChannelFormat, type ChannelResource, type CreateChannelInput, type UpdateChannelInput } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { ORGANIZATION_WIDE, scopeOf } from '../email-channels/email-channel-form';
import type { Translate } from '../i18n/catalogue';
import { fieldRefusalText } from '../i18n/refusals';

/** The webhook form as typed, to show it again with what the command refused. */
export interface WebhookFormValues {
  url: string;
  name: string;
  /** ORGANIZATION_WIDE or a store id; chosen on creation only (the API fixes it too). */
  store_id: string;
  format: string;
  /** None ticked: every event, as the API's `events: null`. */
  events: string[];
  min_severity: string;
  active: boolean;
}

/** The fields a refusal may name, in the form's order. */
export const WEBHOOK_FIELDS = ['url', 'name', 'store_id', 'format', 'events', 'min_severity'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];

/** Each event is its own checkbox, since a repeated field keeps one value. */
export const eventField = (event: string): string => `event.${event}`;

export const blankWebhookForm = (): WebhookFormValues => ({ url: '', name: '', store_id: ORGANIZATION_WIDE, format: 'json', events: [], min_severity: 'high', active: true });

export const webhookFormOf = (channel: ChannelResource): WebhookFormValues => ({
  url: channel.url ?? '',
  name: channel.name,
  store_id: channel.store_id ?? ORGANIZATION_WIDE,
  format: channel.format ?? 'json',
  events: channel.events ?? [],
  min_severity: channel.min_severity,
  active: channel.active,
});

/** An unticked box is absent from a posted form: absent means inactive. */
export const webhookFormValues = (form: Record<string, string>): WebhookFormValues => ({
  url: (form.url ?? '').trim(),
  name: form.name ?? '',
  store_id: form.store_id ?? ORGANIZATION_WIDE,
  format: form.format ?? 'json',
  events: SUBSCRIBABLE_EVENT_TYPES.filter((event) => form[eventField(event)] !== undefined),
  min_severity: form.min_severity ?? '',
  active: form.active === 'on',
});

const eventsOf = (values: WebhookFormValues): string[] | null => (values.events.length ? values.events : null);

/**
 * POST /webhooks's body from the form. A blank name is left out, so the service names the webhook after its URL's
 * host as it does for the API; the secret is always the service's own (`whsec_…`), shown once.
 */
export const creationInput = (values: WebhookFormValues): CreateChannelInput => ({
  url: values.url,
  ...(values.name.trim() ? { name: values.name } : {}),
  store_id: scopeOf(values.store_id) ?? undefined,
  // Sent as chosen: the command refuses a format or severity that is not one, naming the field.
  format: values.format as ChannelFormat,
  events: eventsOf(values),
  min_severity: values.min_severity as AlertSeverity,
  active: values.active,
});

/** PATCH /webhooks/{id}'s body: every setting the form shows (a blank name is refused by the command). */
export const changesOf = (values: WebhookFormValues): UpdateChannelInput => ({
  url: values.url,
  name: values.name,
  events: eventsOf(values),
  min_severity: values.min_severity as AlertSeverity,
  active: values.active,
});

/**
 * What the command refused of each field, in the person's language, for the page to show beside the field; undefined
 * when the refusal is about no field of the form (a suspended store, the channel limit), which the page shows whole.
 */
export function refusedFields(t: Translate, error: unknown): Partial<Record<WebhookField, string>> | undefined {
  if (!(error instanceof DomainError) || error.code !== 'validation_error') return undefined;
  const refused: Partial<Record<WebhookField, string>> = {};
  for (const detail of error.details ?? []) {
    const known = WEBHOOK_FIELDS.find((candidate) => candidate === detail.field);
    const message = fieldRefusalText(t, detail, WEBHOOK_SETTINGS_REFUSALS);
    if (known) refused[known] = refused[known] ? `${refused[known]}; ${message}` : message;
  }
  return Object.keys(refused).length ? refused : undefined;
}
