import type { AlertSeverity } from '../read-models/alert';
import type { ChannelFormat, ChannelResource } from '../read-models/channel';

export const NOTIFIER_COMMANDS = {
  channelCreate: 'notifier.channel.create',
  channelUpdate: 'notifier.channel.update',
  channelDelete: 'notifier.channel.delete',
  channelTest: 'notifier.channel.test',
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

/** What every channel command carries: who acts, on which organization's behalf, on which channel. */
export interface ChannelCommandEnvelope<Input = unknown> {
  orgId: string;
  actor: string;
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
