import { Inject, Injectable } from '@nestjs/common';
import { ALERTS, SCRIPTS, type StoreDocument } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { sdkStatus } from '@pss/store-reads';
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
    const scripts = this.readStore.collection(SCRIPTS);
    return {
      store_id: store._id,
      status: store.status,
      sdk: await sdkStatus(this.readStore, store, this.clock.now()),
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
