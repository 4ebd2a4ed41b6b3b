import {
  CHANNELS,
  DELIVERIES,
  DELIVERY_HISTORY_DAYS,
  DELIVERY_HISTORY_SIZE,
  toResource,
  type ChannelDocument,
  type ChannelResource,
  type DeliveryDocument,
  type DeliveryStatus,
} from '@pss/contracts';
import { addDays, notFound } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/** The organization's e-mail channels, newest first: the API never lists them, the dashboard does. */
export async function listEmailChannels(readStore: ReadStore, orgId: string): Promise<ChannelResource[]> {
  const channels = await readStore.collection<ChannelDocument>(CHANNELS).find({ org_id: orgId, type: 'email' }, { sort: { created_at: -1, _id: -1 } });
  return channels.map((channel) => toResource(channel));
}

/** One row of a channel's delivery history, as the dashboard shows it (spec, Delivery). No resend: the spec has none. */
export interface DeliveryRow {
  /** Also the `X-Service-Delivery` header. */
  delivery_id: string;
  event_type: string;
  event_id: string;
  /** When the delivery was requested. */
  time: string;
  attempts: number;
  outcome: DeliveryStatus;
  status_code: number | null;
  duration_ms: number | null;
  next_retry_at: string | null;
  error: string | null;
}

/**
 * A channel's last 50 deliveries of the last 90 days at `now`, newest first, any channel type. Another
 * organization's channel and a deleted one are not found, as a missing one.
 */
export async function channelDeliveries(readStore: ReadStore, orgId: string, channelId: string, now: Date): Promise<DeliveryRow[]> {
  if (!(await isChannelOf(readStore, orgId, channelId))) throw notFound('Channel');
  return (await recentDeliveries(readStore, orgId, channelId, now)).map(deliveryRow);
}

/**
 * The history behind the dashboard's deliveries and the admin CLI's `deliveries list`: a channel's last 50
 * deliveries of the last 90 days at `now`, newest first, of `orgId` only. A deleted channel's stay until they age out.
 */
export async function recentDeliveries(readStore: ReadStore, orgId: string, channelId: string, now: Date): Promise<DeliveryDocument[]> {
  const since = addDays(now, -DELIVERY_HISTORY_DAYS).toISOString();
  return readStore
    .collection<DeliveryDocument>(DELIVERIES)
    .find({ channel_id: channelId, org_id: orgId, created_at: { $gte: since } }, { sort: { created_at: -1, _id: -1 }, limit: DELIVERY_HISTORY_SIZE });
}

/** Whether `channelId` is a live channel of `orgId`. */
export async function isChannelOf(readStore: ReadStore, orgId: string, channelId: string): Promise<boolean> {
  return (await readStore.collection<ChannelDocument>(CHANNELS).findOne({ _id: channelId, org_id: orgId })) !== null;
}

const deliveryRow = (delivery: DeliveryDocument): DeliveryRow => ({
  delivery_id: delivery._id,
  event_type: delivery.event_type,
  event_id: delivery.event_id,
  time: delivery.created_at,
  attempts: delivery.attempts,
  outcome: delivery.status,
  status_code: delivery.status_code ?? null,
  duration_ms: delivery.duration_ms ?? null,
  next_retry_at: delivery.next_attempt_at,
  error: delivery.last_error,
});
