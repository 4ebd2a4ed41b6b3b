import { printable } from '@pss/kernel';
import { DELIVERIES, DELIVERY_HISTORY_SIZE, type DeliveryDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, POSITION_FIELD, readModelProjection } from '@pss/projections';
import type { Document, ReadCollection } from '@pss/read-store';
import type { DeliveryEvent } from './delivery.events';

/** The deliveries not settled yet, and when each may next be taken: what the retry cycle reads. */
export const PENDING_DELIVERIES = 'notifier_pending_deliveries';

export interface PendingDelivery extends Document {
  channel_id: string;
  org_id: string;
  /** When the next attempt may be taken: at once after the request, a retry's time, or when the current claim runs out. */
  due_at: string;
  /**
   * Whether any attempt was claimed. False: the immediate attempt is still to be made, by the process that requested
   * it or, if that one died, by MissedFirstAttempts. Absent on entries projected before issue 33 (the retry cycle's).
   */
  attempted?: boolean;
}

const isDeliveryEvent = canHandle<DeliveryEvent>({
  DeliveryRequested: true,
  DeliveryAttemptStarted: true,
  DeliveryAttemptFailed: true,
  DeliverySucceeded: true,
  DeliveryFailed: true,
});

/**
 * `notifier_pending_deliveries` for the retry cycle, and `deliveries`, the history the dashboard and the admin
 * CLI show: each channel's newest 50 (the older ones leave it as new ones come in).
 */
export class DeliveryProjection extends readModelProjection({
  name: 'deliveries',
  streamPrefixes: ['delivery-'],
  collections: {
    [PENDING_DELIVERIES]: [{ key: { due_at: 1, _id: 1 } }, { key: { attempted: 1, due_at: 1, _id: 1 } }],
    [DELIVERIES]: [{ key: { channel_id: 1, created_at: -1, _id: -1 } }],
  },
  canHandle: isDeliveryEvent,
  async evolve(event, context) {
    const pending = context.collection<PendingDelivery>(PENDING_DELIVERIES);
    const history = context.collection<DeliveryDocument>(DELIVERIES);
    const { deliveryId } = event.data;
    switch (event.type) {
      case 'DeliveryRequested': {
        const { data } = event;
        await applyOnce(pending, deliveryId, event, { $set: { channel_id: data.channelId, org_id: data.orgId, due_at: data.requestedAt, attempted: false } }, { upsert: true });
        const entry: Omit<DeliveryDocument, '_id'> = {
          org_id: data.orgId,
          channel_id: data.channelId,
          event_id: data.event.id,
          event_type: data.event.type,
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: null,
          status_code: null,
          duration_ms: null,
          attempt_started_at: null,
          created_at: data.requestedAt,
          updated_at: data.requestedAt,
        };
        await applyOnce(history, deliveryId, event, { $set: entry }, { upsert: true });
        await keepNewest(history, data.channelId);
        return;
      }
      case 'DeliveryAttemptStarted':
        await applyOnce(pending, deliveryId, event, { $set: { due_at: event.data.claimedUntil, attempted: true } });
        await applyOnce(history, deliveryId, event, { $set: { next_attempt_at: null, attempt_started_at: event.data.at, updated_at: event.data.at } });
        return;
      case 'DeliveryAttemptFailed': {
        const { attempt, error, at, nextAttemptAt } = event.data;
        await applyOnce(pending, deliveryId, event, { $set: { due_at: nextAttemptAt } });
        // Printable here too: errors recorded before receiver text was cleaned at the client still reach the CLI.
        const measured = { status_code: statusCodeOf(error), duration_ms: await durationOf(history, deliveryId, at) };
        await applyOnce(history, deliveryId, event, { $set: { attempts: attempt, last_error: printable(error), next_attempt_at: nextAttemptAt, ...measured, updated_at: at } });
        return;
      }
      case 'DeliverySucceeded':
      case 'DeliveryFailed': {
        const { at } = event.data;
        await pending.deleteMany({ _id: deliveryId, [POSITION_FIELD]: { $lt: event.position } });
        const settled =
          event.type === 'DeliverySucceeded'
            ? { status: 'delivered', attempts: event.data.attempt, status_code: event.data.status, duration_ms: await durationOf(history, deliveryId, at) }
            : { status: 'failed', attempts: event.data.attempts, last_error: printable(event.data.error) };
        await applyOnce(history, deliveryId, event, { $set: { ...settled, next_attempt_at: null, updated_at: at } });
        return;
      }
    }
  },
}) {}

/** An attempt's HTTP status as its error records it (`http_<status>: <body>`); null for timeouts and network errors. */
export function statusCodeOf(error: string): number | null {
  const match = /^http_(\d{3})\b/.exec(error);
  return match ? Number(match[1]) : null;
}

/** From the attempt's start, as the history recorded it, to its outcome at `at`. */
async function durationOf(history: ReadCollection<DeliveryDocument>, deliveryId: string, at: string): Promise<number | null> {
  const started = (await history.findOne({ _id: deliveryId }))?.attempt_started_at;
  return started ? Math.max(0, Date.parse(at) - Date.parse(started)) : null;
}

/** Drops a channel's history beyond its newest entries. */
async function keepNewest(history: ReadCollection<DeliveryDocument>, channelId: string): Promise<void> {
  const older = await history.find({ channel_id: channelId }, { sort: { created_at: -1, _id: -1 }, skip: DELIVERY_HISTORY_SIZE });
  if (older.length) await history.deleteMany({ _id: { $in: older.map((entry) => entry._id) } });
}
