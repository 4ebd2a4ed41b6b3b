import type { AlertSeverity } from '../read-models/alert';
import type { ChannelFormat, ChannelResource } from '../read-models/channel';

export const NOTIFIER_COMMANDS = {
  channelCreate: 'notifier.channel.create',
  channelUpdate: 'notifier.channel.update',
  channelDelete: 'notifier.channel.delete',
  channelTest: 'notifier.channel.test',
  emailChannelCreate: 'notifier.email-channel.create',
  emailChannelUpdate: 'notifier.email-channel.update',
  emailChannelDelete: 'notifier.email-channel.delete',
  emailChannelTest: 'notifier.email-channel.test',
} as const;

/** Spec, Webhook and Limits. */
export const WEBHOOK_NAME_MAX = 120;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 256;

/** The POST /webhooks body without `org_id`. */
export interface CreateChannelInput {
  url: string;
  secret?: string;
  format?: ChannelFormat;
  name?: string;
  store_id?: string;
  events?: string[] | null;
  min_severity?: AlertSeverity;
  active?: boolean;
}

/** The PATCH /webhooks/{id} body without `org_id`: a `secret` rotates the signing secret. */
export interface UpdateChannelInput {
  url?: string;
  secret?: string;
  name?: string;
  events?: string[] | null;
  min_severity?: AlertSeverity;
  active?: boolean;
}

/** What every channel command carries: on which organization's behalf, on which channel (the actor: in the metadata). */
export interface ChannelCommandEnvelope<Input = unknown> {
  orgId: string;
  id?: string;
  input: Input;
}

/** The create reply: the only place the secret ever appears. */
export type CreatedChannel = ChannelResource & { secret: string; secret_generated: boolean };

/** POST /webhooks/{id}/test: `id` is the channel's; `error` is null when delivered. */
export interface ChannelTestResult {
  id: string;
  delivered: boolean;
  error: string | null;
}

/** Spec, Limits and Events notes: e-mail channels, which only the dashboard manages. */
export const EMAIL_CHANNEL_RECIPIENTS_MAX = 5;
export const EMAIL_EVENT_TYPES = ['alert.created', 'report.ready', 'test'] as const;

/**
 * The dashboard's e-mail channel form. Its events are fixed (EMAIL_EVENT_TYPES); `min_severity` filters its
 * `alert.created`. `store_id` (null or absent: organization-wide) is fixed at creation, as a webhook's.
 */
export interface EmailChannelInput {
  name: string;
  recipients: string[];
  store_id?: string | null;
  min_severity?: AlertSeverity;
  active?: boolean;
}

/** What may change: anything but the scope. */
export type EmailChannelChanges = Partial<Omit<EmailChannelInput, 'store_id'>>;

/**
 * The e-mail channel commands (`notifier.email-channel.*`), sent by the dashboard with the actor in the command
 * metadata (`Bus.request(…, { actor: 'user:<e-mail>' })`). `id` names the channel, except on create.
 */
export interface EmailChannelRequest<Input = undefined> {
  orgId: string;
  id?: string;
  input: Input;
}
