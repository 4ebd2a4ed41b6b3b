import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { SdkWatch, type SdkActivity, type StoreCreated, type StoreSuspended } from './sdk-watch';

/** Inventory's store lifecycle and SDK activity, for the SDK-silent watch, in this service's consumer group. */
@Controller()
export class SdkWatchConsumer {
  constructor(private readonly watch: SdkWatch) {}

  @EventPattern('inventory.store.created')
  storeCreated(@Payload() event: StoreCreated): Promise<void> {
    return this.watch.storeCreated(event);
  }

  @EventPattern('inventory.store.suspended')
  storeSuspended(@Payload() event: StoreSuspended): Promise<void> {
    return this.watch.storeSuspended(event);
  }

  @EventPattern('inventory.sdk.activity')
  sdkReported(@Payload() event: SdkActivity): Promise<void> {
    return this.watch.sdkReported(event);
  }
}
