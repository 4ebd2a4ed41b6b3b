import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { SdkActivityEvent, StoreWatchEvent } from './store-watch.decider';

/** This service's own view of each store's SDK activity, so it reads none of inventory's collections. */
export const SDK_WATCH = 'alerts_sdk_watch';

export interface SdkWatchDocument {
  _id: string;
  org_id: string;
  /** Absent for a store whose creation this service never heard of. */
  domain?: string;
  suspended?: boolean;
  last_event_at?: string;
}

const isWatchedEvent = canHandle<StoreWatchEvent | SdkActivityEvent>({
  StoreWatchStarted: true,
  StoreWatchStopped: true,
  SdkActivityRecorded: true,
});

export class SdkWatchProjection extends readModelProjection({
  name: SDK_WATCH,
  streamPrefixes: ['sdkwatch-', 'sdkseen-'],
  collections: { [SDK_WATCH]: [{ key: { last_event_at: 1 } }] },
  canHandle: isWatchedEvent,
  async evolve(event, context) {
    const watch = context.collection<SdkWatchDocument>(SDK_WATCH);
    switch (event.type) {
      case 'StoreWatchStarted':
        await applyOnce(watch, event.data.storeId, event, { $set: { org_id: event.data.orgId, domain: event.data.domain } }, { upsert: true });
        return;
      case 'StoreWatchStopped':
        await applyOnce(watch, event.data.storeId, event, { $set: { org_id: event.data.orgId, suspended: true } }, { upsert: true });
        return;
      case 'SdkActivityRecorded':
        await applyOnce(watch, event.data.storeId, event, { $set: { org_id: event.data.orgId }, $max: { last_event_at: event.data.lastEventAt } }, { upsert: true });
        return;
    }
  },
}) {}
