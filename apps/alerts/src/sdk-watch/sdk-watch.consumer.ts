import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { INVENTORY_TOPICS as T, type InventoryFactOf } from '@pss/contracts';
import { SdkWatch } from './sdk-watch';

/** Inventory's store lifecycle and SDK activity, for the SDK-silent watch, in this service's consumer group. */
@Controller()
export class SdkWatchConsumer {
  constructor(private readonly watch: SdkWatch) {}

  @EventPattern(T.storeCreated)
  storeCreated(@Payload() event: InventoryFactOf<typeof T.storeCreated>): Promise<void> {
    return this.watch.storeCreated(event);
  }

  @EventPattern(T.storeSuspended)
  storeSuspended(@Payload() event: InventoryFactOf<typeof T.storeSuspended>): Promise<void> {
    return this.watch.storeSuspended(event);
  }

  @EventPattern(T.sdkActivity)
  sdkReported(@Payload() event: InventoryFactOf<typeof T.sdkActivity>): Promise<void> {
    return this.watch.sdkReported(event);
  }
}
