import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { REPLICA_EVENTS, type ReplicaEvents } from '@pss/bus';
import { SDK_CONFIG_TOPICS } from '@pss/contracts';
import { KeyedSdkScripts } from './keyed-sdk-scripts';

/**
 * Drops a store's built `sdk.js` on every fact that changes what its SDK acts on, in every replica of the gateway
 * (each reads the facts in a group of its own): a block rule reaches the next page view of a new browser within
 * the bus's delivery, not a rebuild timer. `/sdk/v1/config` needs nothing: it is read from the read models.
 */
@Injectable()
export class SdkConfigChanges implements OnModuleInit, OnApplicationShutdown {
  private stop?: () => Promise<void>;

  constructor(
    @Inject(REPLICA_EVENTS) private readonly events: ReplicaEvents,
    private readonly keyed: KeyedSdkScripts,
  ) {}

  async onModuleInit(): Promise<void> {
    this.stop = await this.events.subscribe(SDK_CONFIG_TOPICS, (_topic, fact) => {
      const storeId = (fact as { store_id?: unknown }).store_id;
      if (typeof storeId === 'string') this.keyed.changed(storeId);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}
