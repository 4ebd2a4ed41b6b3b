import type { toResource } from '../resource';
import type { AlertSeverity } from './alert';

/**
 * Read model `channels` (owner: notifier; readers: api-gateway for GET /webhooks, the dashboard). A document is
 * the spec's Webhook resource plus `org_id`, minus bookkeeping, and never the secret: `has_secret` says whether
 * there is one. E-mail channels (dashboard-only) live here too, with `type: 'email'`, no URL, no format and their
 * `recipients`; the API never lists them.
 */
export const CHANNELS = 'channels';

/** What a client may choose on POST /webhooks; the channel's type follows from it. */
export const CHANNEL_FORMATS = ['json', 'slack', 'teams'] as const;
export type ChannelFormat = (typeof CHANNEL_FORMATS)[number];

export type ChannelType = 'webhook' | 'slack' | 'teams' | 'email';

/** The types the API manages: every channel but the dashboard's e-mail channels. */
export const API_CHANNEL_TYPES: ChannelType[] = ['webhook', 'slack', 'teams'];

export const channelTypeOf = (format: ChannelFormat): ChannelType => (format === 'json' ? 'webhook' : format);

/** The spec's Events table, in its order. */
export const WEBHOOK_EVENT_TYPES = [
  'alert.created',
  'alert.resolved',
  'integrity.changed',
  'header.changed',
  'sdk.silent',
  'script.detected',
  'policy.applied',
  'report.ready',
  'test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Accepted in a channel's `events` (spec, Events notes) but never sent. */
export const UNSENT_EVENT_TYPES = ['script.authorized', 'script.blocked'] as const;

/** What a channel's `events` may list. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [...WEBHOOK_EVENT_TYPES, ...UNSENT_EVENT_TYPES];

export interface ChannelDocument {
  _id: string;
  org_id: string;
  /** null: organization-wide. Fixed at creation, like the type. */
  store_id: string | null;
  type: ChannelType;
  name: string;
  /** null for e-mail channels. */
  url: string | null;
  /** null for e-mail channels. */
  format: ChannelFormat | null;
  has_secret: boolean;
  /** null or empty: every event. */
  events: string[] | null;
  /** Applies to alert events only. */
  min_severity: AlertSeverity;
  active: boolean;
  /** The last successful delivery (test deliveries included). */
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
  /** E-mail channels only: the addresses (at most 5). */
  recipients?: string[];
}

export type ChannelResource = ReturnType<typeof toResource<ChannelDocument>>;
