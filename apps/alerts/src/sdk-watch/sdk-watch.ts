import { Inject, Injectable } from '@nestjs/common';
import { ALERTS, INVENTORY_TOPICS as T, type AlertDocument, type InventoryFactOf } from '@pss/contracts';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { alertDecider } from '../alert/alert.decider';
import { alertStream, SYSTEM_ACTOR } from '../alert/alert.events';
import { SDK_WATCH, type SdkWatchDocument } from './sdk-watch.projection';
import {
  SDK_ACTIVITY_RECORDING_MS,
  sdkActivityStream,
  storeWatchDecider,
  storeWatchStream,
  type SdkActivityEvent,
  type StoreWatchCommand,
} from './store-watch.decider';

/**
 * Follows each store's SDK for the SDK-silent watch: which stores to watch, when their SDK last reported, and
 * the SDK_SILENT alerts that close themselves when it reports again.
 */
@Injectable()
export class SdkWatch {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async storeCreated({ org_id, data }: InventoryFactOf<typeof T.storeCreated>): Promise<void> {
    await this.decide({ type: 'StartWatching', storeId: data.store_id, orgId: org_id!, domain: data.domain, at: data.created_at });
  }

  async storeSuspended({ org_id, data }: InventoryFactOf<typeof T.storeSuspended>): Promise<void> {
    await this.decide({ type: 'StopWatching', storeId: data.store_id, orgId: org_id!, at: data.suspended_at });
  }

  async sdkReported({ org_id, data }: InventoryFactOf<typeof T.sdkActivity>): Promise<void> {
    const { store_id: storeId, last_event_at: lastEventAt } = data;
    const watched = await this.readStore.collection<SdkWatchDocument>(SDK_WATCH).findOne({ _id: storeId });
    // Heard of every few seconds; recorded when the last record is older than the watch can tell apart.
    if (!watched?.last_event_at || Date.parse(lastEventAt) - Date.parse(watched.last_event_at) >= SDK_ACTIVITY_RECORDING_MS) {
      const recorded: SdkActivityEvent = { type: 'SdkActivityRecorded', data: { storeId, orgId: org_id!, lastEventAt } };
      await this.eventStore.append(sdkActivityStream(storeId), [{ ...recorded, metadata: { actor: SYSTEM_ACTOR, orgId: org_id! } }]);
    }
    const silent = await this.readStore.collection<AlertDocument>(ALERTS).find({ store_id: storeId, type: 'SDK_SILENT', status: 'open' });
    for (const alert of silent) {
      const command = { type: 'ResolveOnSdkActivity' as const, lastEventAt, at: this.clock.now() };
      await this.aggregates.decide(alertStream(alert._id), alertDecider, command, { actor: SYSTEM_ACTOR, orgId: alert.org_id });
    }
  }

  private async decide(command: StoreWatchCommand): Promise<void> {
    await this.aggregates.decide(storeWatchStream(command.storeId), storeWatchDecider, command, { actor: SYSTEM_ACTOR, orgId: command.orgId });
  }
}
