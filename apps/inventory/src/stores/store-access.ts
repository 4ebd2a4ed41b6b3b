import { Inject, Injectable } from '@nestjs/common';
import { STORES, toResource, type StoreDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { storeDecider, type StoreState } from './store.decider';
import { storeStream } from './store.events';

export type StoreResource = ReturnType<typeof toResource<StoreDocument>>;

/** Loads a store for an organization: another organization's store does not exist, as far as it can tell. */
@Injectable()
export class StoreAccess {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async ownedBy(orgId: string, storeId: string): Promise<StoreState> {
    const { state } = await this.aggregates.load(storeStream(storeId), storeDecider);
    if (!state.storeId || state.orgId !== orgId) throw notFound('Store');
    return state;
  }

  /** The store as the API shows it, from the read model the write just reached. */
  async resource(storeId: string): Promise<StoreResource> {
    const doc = await this.readStore.collection<StoreDocument>(STORES).findOne({ _id: storeId });
    if (!doc) throw notFound('Store');
    return toResource(doc);
  }
}
