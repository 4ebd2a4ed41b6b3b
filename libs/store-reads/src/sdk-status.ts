import { SDK_SILENT_AFTER_MS, SDK_TRAFFIC_WINDOW_MS, STORE_ACTIVITY, type StoreActivityDocument, type StoreDocument } from '@pss/contracts';
import type { ReadStore } from '@pss/read-store';

/** Whether a store's SDK is installed and reporting: the `sdk` of GET /stores/{id}/status and the dashboard's home. */
export interface SdkStatus {
  installed: boolean;
  paused: boolean;
  last_event_at: string | null;
  silent: boolean;
  events_total: number;
}

/**
 * Installed once any page view came; silent when it reported in the last 7 days but not in the last 24 hours (a
 * store quiet for longer is no longer "silent" news); paused while developer mode is on.
 */
export function sdkStatusOf(store: Pick<StoreDocument, 'sdk_config'>, activity: Pick<StoreActivityDocument, 'last_event_at' | 'events_total'> | null, now: Date): SdkStatus {
  const last = activity?.last_event_at ? Date.parse(activity.last_event_at) : undefined;
  const quietFor = last === undefined ? undefined : now.getTime() - last;
  return {
    installed: last !== undefined,
    paused: store.sdk_config?.developer_mode ?? false,
    last_event_at: activity?.last_event_at ?? null,
    silent: quietFor !== undefined && quietFor >= SDK_SILENT_AFTER_MS && quietFor < SDK_TRAFFIC_WINDOW_MS + SDK_SILENT_AFTER_MS,
    events_total: activity?.events_total ?? 0,
  };
}

/** A store's SDK status as its activity read model has it now. */
export async function sdkStatus(readStore: ReadStore, store: Pick<StoreDocument, '_id' | 'sdk_config'>, now: Date): Promise<SdkStatus> {
  return sdkStatusOf(store, await readStore.collection<StoreActivityDocument>(STORE_ACTIVITY).findOne({ _id: store._id }), now);
}
