import {
  STORE_ACTIVITY,
  USAGE_COUNTERS,
  usageCounterId,
  usageMonth,
  type StoreActivityDocument,
  type StoreSightings,
  type UsageCounterDocument,
} from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { SightingsEvent } from './sightings';

export const isSightingsEvent = canHandle<SightingsEvent>({
  SightingsFlushed: true,
});

/**
 * `store_activity` (when each store's SDK last reported a page view, and its events) and `usage_counters` (SDK
 * events per month). Every batch is usage; only page views say the SDK is installed and reporting.
 */
export class StoreActivityProjection extends readModelProjection({
  name: 'store_activity',
  streamPrefixes: ['sightings-'],
  collections: {
    [STORE_ACTIVITY]: [{ key: { org_id: 1 } }, { key: { last_event_at: 1 } }],
    [USAGE_COUNTERS]: [{ key: { org_id: 1, month: 1 } }],
  },
  canHandle: isSightingsEvent,
  async evolve(event, context) {
    const { data } = event;
    const monitored = monitoredSpan(data);
    await applyOnce(context.collection<StoreActivityDocument>(STORE_ACTIVITY), data.storeId, event, {
      $set: { org_id: data.orgId },
      ...(monitored ? { $min: { first_event_at: monitored.first }, $max: { last_event_at: monitored.last } } : {}),
      $inc: { events_total: data.observations },
    }, { upsert: true });
    const month = usageMonth(new Date(data.lastEventAt));
    await applyOnce(context.collection<UsageCounterDocument>(USAGE_COUNTERS), usageCounterId(data.orgId, month), event, {
      $set: { org_id: data.orgId, month },
      $inc: { events: data.observations },
    }, { upsert: true });
  },
}) {}

/**
 * When the window's page views came in; none for a window without any. A window from an edge older than
 * `pageViews` counted every batch as one, and is read as it was then.
 */
export function monitoredSpan(window: StoreSightings): { first: string; last: string } | undefined {
  if (!window.pageViews) return { first: window.firstEventAt, last: window.lastEventAt };
  const { firstAt, lastAt } = window.pageViews;
  return firstAt && lastAt ? { first: firstAt, last: lastAt } : undefined;
}
