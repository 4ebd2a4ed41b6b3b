import { Injectable } from '@nestjs/common';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, type Projection, type ProjectionContext } from '@pss/projections';
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

@ReadModelProjection()
@Injectable()
export class SdkWatchProjection implements Projection {
  readonly name = SDK_WATCH;
  readonly filter = { streamPrefixes: ['sdkwatch-', 'sdkseen-'] };
  readonly collections: Projection['collections'] = { [SDK_WATCH]: [{ key: { last_event_at: 1 } }] };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    if (!isWatchedEvent(recorded)) return;
    const event = recorded;
    const watch = context.collection<SdkWatchDocument>(SDK_WATCH);
    switch (event.type) {
      case 'StoreWatchStarted':
        await applyOnce(watch, event.data.storeId, recorded, { $set: { org_id: event.data.orgId, domain: event.data.domain } }, { upsert: true });
        return;
      case 'StoreWatchStopped':
        await applyOnce(watch, event.data.storeId, recorded, { $set: { org_id: event.data.orgId, suspended: true } }, { upsert: true });
        return;
      case 'SdkActivityRecorded':
        await applyOnce(watch, event.data.storeId, recorded, { $set: { org_id: event.data.orgId }, $max: { last_event_at: event.data.lastEventAt } }, { upsert: true });
        return;
    }
  }
}
