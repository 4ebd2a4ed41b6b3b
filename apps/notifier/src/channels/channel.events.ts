import type { AlertSeverity, ChannelFormat, ChannelType } from '@pss/contracts';
import type { DomainEvent } from '@pss/kernel';

/** What PATCH (or the dashboard, for e-mail channels) may change; scope, type and format are fixed at creation (spec, Webhook). */
export interface ChannelSettings {
  url: string | null;
  name: string;
  events: string[] | null;
  minSeverity: AlertSeverity;
  active: boolean;
  /** E-mail channels: the addresses; null otherwise. */
  recipients: string[] | null;
}

export interface Channel extends ChannelSettings {
  channelId: string;
  orgId: string;
  storeId: string | null;
  type: ChannelType;
  format: ChannelFormat | null;
  /** Sealed (secrets/secret-box.ts): the plain secret is never in an event. null: the channel signs nothing. */
  secret: string | null;
}

export type ChannelEvent =
  | DomainEvent<'ChannelCreated', Channel & { createdAt: string }>
  /** Only what changed; `secret` when it was rotated. */
  | DomainEvent<'ChannelUpdated', { channelId: string; changes: Partial<ChannelSettings>; secret?: string; updatedAt: string }>
  | DomainEvent<'ChannelDeleted', { channelId: string; deletedAt: string }>;

export const channelStream = (channelId: string): string => `channel-${channelId}`;
