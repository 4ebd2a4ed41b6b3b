import { Inject, Injectable } from '@nestjs/common';
import {
  ALERTS,
  SCRIPTS,
  SDK_SILENT_AFTER_MS,
  SDK_TRAFFIC_WINDOW_MS,
  STORE_ACTIVITY,
  type StoreActivityDocument,
  type StoreDocument,
} from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { StorePolicy } from './csp/store-policy';

/** GET /stores/{id}/status: is the SDK installed and reporting, and what needs attention. */
@Injectable()
export class StoreStatus {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly policies: StorePolicy,
  ) {}

  async of(store: StoreDocument) {
    const activity = await this.readStore.collection<StoreActivityDocument>(STORE_ACTIVITY).findOne({ _id: store._id });
    const last = activity?.last_event_at ? Date.parse(activity.last_event_at) : undefined;
    const now = this.clock.now().getTime();
    const scripts = this.readStore.collection(SCRIPTS);
    return {
      store_id: store._id,
      status: store.status,
      sdk: {
        installed: last !== undefined,
        paused: store.sdk_config?.developer_mode ?? false,
        last_event_at: activity?.last_event_at ?? null,
        silent: last !== undefined && now - last >= SDK_SILENT_AFTER_MS && now - last < SDK_TRAFFIC_WINDOW_MS + SDK_SILENT_AFTER_MS,
        events_total: activity?.events_total ?? 0,
      },
      scripts: {
        total: await scripts.count({ store_id: store._id }),
        needs_review: await scripts.count({ store_id: store._id, status: 'needs_review' }),
        authorized: await scripts.count({ store_id: store._id, status: 'authorized' }),
        blocked: await scripts.count({ store_id: store._id, status: 'blocked' }),
      },
      alerts: { open: await this.readStore.collection(ALERTS).count({ store_id: store._id, status: 'open' }) },
      // The policies the store's pages send (as the SDK reads them), against the one its inventory writes now.
      csp: await this.policies.staleness(store),
    };
  }
}
