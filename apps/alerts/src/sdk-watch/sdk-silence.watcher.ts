import { Inject, Injectable } from '@nestjs/common';
import { SDK_SILENT_AFTER_MS, SDK_TRAFFIC_WINDOW_MS } from '@pss/contracts';
import { PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { AlertOccurrences } from '../alert/alert-occurrences';
import { fingerprintOf } from '../alert/fingerprint';
import { SDK_WATCH, type SdkWatchDocument } from './sdk-watch.projection';
import { SDK_ACTIVITY_RECORDING_MS } from './store-watch.decider';

/** How often the watch looks for silent stores. */
export const SDK_WATCH_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Opens SDK_SILENT for every watched store whose SDK reported within the traffic window (7 days) but not for
 * 24 hours. Runs on every replica and may run any number of times: a silence is one occurrence, marked by the
 * store's last SDK event, so a second run (here or elsewhere) finds the alert already past that mark.
 */
@Injectable()
export class SdkSilenceWatcher extends PeriodicJob {
  constructor(
    private readonly occurrences: AlertOccurrences,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    super('SdkSilenceWatcher', SDK_WATCH_INTERVAL_MS);
  }

  /** Looks once; answers how many stores are silent. */
  protected async once(): Promise<number> {
    const now = this.clock.now();
    const silentSince = new Date(now.getTime() - SDK_SILENT_AFTER_MS - SDK_ACTIVITY_RECORDING_MS).toISOString();
    const trafficSince = new Date(now.getTime() - SDK_TRAFFIC_WINDOW_MS).toISOString();
    const silent = await this.readStore
      .collection<SdkWatchDocument>(SDK_WATCH)
      .find({ suspended: { $ne: true }, last_event_at: { $gt: trafficSince, $lte: silentSince } });
    for (const store of silent) {
      const lastEventAt = store.last_event_at!;
      await this.occurrences.record({
        orgId: store.org_id,
        storeId: store._id,
        type: 'SDK_SILENT',
        fingerprint: fingerprintOf('SDK_SILENT', store._id),
        changeType: null,
        source: null,
        page: null,
        details: { domain: store.domain ?? null, last_event_at: lastEventAt },
        sessionId: null,
        at: now.toISOString(),
        mark: Date.parse(lastEventAt),
      });
    }
    return silent.length;
  }
}
