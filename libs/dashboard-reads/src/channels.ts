import {
  API_CHANNEL_TYPES,
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
import { nextCursor, pageQuery, type Filter, type PageOrder, type PageRequest, type ReadStore } from '@pss/read-store';

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

/** The webhook list's order, GET /webhooks's: newest first, by the same cursor. */
const WEBHOOK_ORDER: PageOrder = { field: 'created_at', direction: -1 };
const webhooksOf = (orgId: string): Filter => ({ org_id: orgId, type: { $in: API_CHANNEL_TYPES } });

/** A page of the organization's webhooks (every channel the API manages), as GET /webhooks pages them. */
export async function webhooksPage(readStore: ReadStore, orgId: string, request: PageRequest): Promise<{ webhooks: ChannelResource[]; nextCursor: string | null }> {
  const { query, sort, limit } = pageQuery(webhooksOf(orgId), WEBHOOK_ORDER, request);
  const found = await readStore.collection<ChannelDocument>(CHANNELS).find(query, { sort, limit: limit + 1 });
  return { webhooks: found.slice(0, limit).map((channel) => toResource(channel)), nextCursor: nextCursor(found, limit, WEBHOOK_ORDER) };
}

/** One of the organization's webhooks, as GET /webhooks/{id} finds it; undefined for any other channel. */
export async function webhookOf(readStore: ReadStore, orgId: string, id: string): Promise<ChannelResource | undefined> {
  const channel = await readStore.collection<ChannelDocument>(CHANNELS).findOne({ _id: id, ...webhooksOf(orgId) });
  return channel ? toResource(channel) : undefined;
}

/** A channel's newest `test` delivery, or null: what its last test answered (status code, duration, outcome). */
export async function lastTestDelivery(readStore: ReadStore, orgId: string, channelId: string): Promise<DeliveryRow | null> {
  const [found] = await readStore
    .collection<DeliveryDocument>(DELIVERIES)
    .find({ channel_id: channelId, org_id: orgId, event_type: 'test' }, { sort: { created_at: -1, _id: -1 }, limit: 1 });
  return found ? deliveryRow(found) : null;
}
