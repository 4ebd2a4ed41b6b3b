import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { installSnippets, STORES, toResource, type StoreDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { listPaymentPages } from '@pss/store-reads';
import { storeDecider, type StoreState } from './store.decider';
import { storeStream } from './store.events';
import { StoreProjection } from './store.projection';

export type StoreResource = ReturnType<typeof toResource<StoreDocument>>;

/** Loads a store for an organization: another organization's store does not exist, as far as it can tell. */
@Injectable()
export class StoreAccess {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly projection: StoreProjection,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async ownedBy(orgId: string, storeId: string): Promise<StoreState> {
    const { state } = await this.aggregates.load(storeStream(storeId), storeDecider);
    if (!state.storeId || state.orgId !== orgId) throw notFound('Store');
    return state;
  }

  /**
   * The store as the API shows it and its payment pages (all, or those of `pageIds`), as the command's write left
   * them, whether or not the read models have it yet.
   */
  async written(storeId: string, pageIds?: string[]) {
    const readModels = await this.aggregates.readModelsAfter(storeStream(storeId), this.projection);
    const doc = await readModels.collection<StoreDocument>(STORES).findOne({ _id: storeId });
    if (!doc) throw notFound('Store');
    return { store: toResource(doc), pages: await listPaymentPages(readModels, storeId, pageIds) };
  }

  /** What a shop pastes to install the SDK with this key, loading it from where this platform serves it. */
  snippets(sdkKey: string) {
    return installSnippets(this.config.sdkScriptUrl, sdkKey);
  }
}
