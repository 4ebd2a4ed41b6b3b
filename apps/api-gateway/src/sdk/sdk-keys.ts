import { Inject, Injectable } from '@nestjs/common';
import { SDK_KEYS, STORES, type SdkKeyDocument, type StoreDocument } from '@pss/contracts';
import { CLOCK, DomainError, type Clock } from '@pss/kernel';
import { READ_STORE, type Frozen, type ReadStore } from '@pss/read-store';
import { REALM } from '../auth/unauthorized';
import { HttpDomainError } from '../http/exceptions.filter';

const SDK_KEY_SHAPE = /^pk_live_[0-9a-f]{32}$/;

/**
 * The SDK authenticates with its store's public key, never with an API token: the current key, or a rotated
 * one during its 24 hours. Unknown and expired keys are 401; a suspended store's key, or one whose domain another
 * store verified, is 403. Every SDK request asks this, and nothing on its path changes the store: the key and the
 * store are read frozen, without copies.
 */
@Injectable()
export class SdkKeys {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async storeOf(key: unknown): Promise<Frozen<StoreDocument>> {
    // Every 401 of the service carries the API's challenge (the spec's rule; HTTP requires one), this one too.
    const invalid = () => new HttpDomainError('unauthorized', 'Invalid SDK key', { 'WWW-Authenticate': `Bearer realm="${REALM}"` });
    if (typeof key !== 'string' || !SDK_KEY_SHAPE.test(key)) throw invalid();
    const record = await this.readStore.collection<SdkKeyDocument>(SDK_KEYS).findOneFrozen({ _id: key });
    if (!record || (record.valid_until !== null && Date.parse(record.valid_until) <= this.clock.now().getTime())) throw invalid();
    const store = await this.readStore.collection<StoreDocument>(STORES).findOneFrozen({ _id: record.store_id });
    if (!store) throw invalid();
    if (store.status !== 'active') throw new DomainError('forbidden', 'The store is suspended');
    // Another store proved the domain by DNS: what this key reports would be a squatter's claim on its pages.
    if (store.domain_claim === 'lost') throw new DomainError('forbidden', 'The domain of this store was verified by another store');
    return store;
  }
}
