import {
  PAYMENT_PAGES,
  SDK_KEYS,
  STORES,
  type PaymentPageDocument,
  type SdkKeyDocument,
  type StoreDocument,
} from '@pss/contracts';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { applyOnce, readModelProjection, type ProjectionContext } from '@pss/projections';
import { challengeOf } from './domain-challenge';
import { storeEventTypes, type PaymentPageRecord, type StoreEvent } from './store.events';

export const isStoreEvent = canHandle<StoreEvent>(storeEventTypes);

/** `stores`, `payment_pages` and `sdk_keys`: what the API lists and what the SDK endpoints authenticate with. */
export class StoreProjection extends readModelProjection({
  name: 'stores',
  streamPrefixes: ['store-'],
  collections: {
    [STORES]: [{ key: { org_id: 1, _id: -1 } }, { key: { org_id: 1, status: 1, _id: -1 } }],
    [PAYMENT_PAGES]: [{ key: { store_id: 1, _id: 1 } }],
    [SDK_KEYS]: [{ key: { store_id: 1 } }],
  },
  canHandle: isStoreEvent,
  async evolve(event, context) {
    const stores = context.collection<StoreDocument>(STORES);
    const keys = context.collection<SdkKeyDocument>(SDK_KEYS);
    switch (event.type) {
      case 'StoreCreated': {
        const { data } = event;
        await applyOnce(stores, data.storeId, event, {
          $set: {
            org_id: data.orgId,
            ...data.profile,
            domain: data.domain,
            environment: data.environment ?? 'production',
            status: 'active',
            sdk_key: data.sdkKey,
            safe_slug: data.safeSlug,
            created_at: data.createdAt,
            updated_at: data.createdAt,
            sdk_config: { ...data.sdkConfig, updated_at: data.createdAt },
            recipients: data.recipients,
            domain_claim: 'unverified',
            domain_verification: verificationOf(challengeOf(data)),
          },
        }, { upsert: true });
        await applyOnce(keys, data.sdkKey, event, { $set: { store_id: data.storeId, org_id: data.orgId, valid_until: null } }, { upsert: true });
        await addPages(context, event, data.storeId, data.orgId, data.domain, data.sdkConfig.mode, data.pages);
        return;
      }
      case 'StoreUpdated': {
        const { data } = event;
        const config = data.sdkConfig
          ? Object.fromEntries([...Object.entries(data.sdkConfig), ['updated_at', data.updatedAt]].map(([k, v]) => [`sdk_config.${k}`, v]))
          : {};
        await applyOnce(stores, data.storeId, event, {
          $set: { ...data.profile, ...config, ...(data.recipients ? { recipients: data.recipients } : {}), updated_at: data.updatedAt },
        });
        if (data.sdkConfig?.mode) {
          await context.collection<PaymentPageDocument>(PAYMENT_PAGES).updateMany({ store_id: data.storeId }, { $set: { mode: data.sdkConfig.mode } });
        }
        return;
      }
      case 'StoreSuspended':
        await applyOnce(stores, event.data.storeId, event, { $set: { status: 'suspended', updated_at: event.data.suspendedAt } });
        return;
      case 'SdkKeyRotated': {
        const { data } = event;
        const store = await stores.findOne({ _id: data.storeId });
        await applyOnce(stores, data.storeId, event, { $set: { sdk_key: data.sdkKey, updated_at: data.rotatedAt } });
        await applyOnce(keys, data.previousKey, event, { $set: { valid_until: data.previousKeyValidUntil } });
        await applyOnce(keys, data.sdkKey, event, { $set: { store_id: data.storeId, org_id: store!.org_id, valid_until: null } }, { upsert: true });
        return;
      }
      case 'PaymentPagesAdded': {
        const store = await stores.findOne({ _id: event.data.storeId });
        await addPages(context, event, event.data.storeId, store!.org_id, store!.domain, store!.sdk_config?.mode ?? 'monitor', event.data.pages);
        return;
      }
      case 'DomainVerified': {
        const { storeId, verifiedAt } = event.data;
        await applyOnce(stores, storeId, event, { $set: { domain_claim: 'verified', 'domain_verification.verified_at': verifiedAt, updated_at: verifiedAt } });
        return;
      }
      case 'DomainClaimLost':
        await applyOnce(stores, event.data.storeId, event, { $set: { domain_claim: 'lost', updated_at: event.data.lostAt } });
        return;
    }
  },
}) {}

async function addPages(
  context: ProjectionContext,
  recorded: RecordedEvent,
  storeId: string,
  orgId: string,
  domain: string,
  mode: string,
  pages: PaymentPageRecord[],
): Promise<void> {
  const collection = context.collection<PaymentPageDocument>(PAYMENT_PAGES);
  for (const page of pages) {
    await applyOnce(collection, page.id, recorded, {
      $set: {
        store_id: storeId,
        org_id: orgId,
        url_pattern: page.url_pattern,
        url: page.url,
        domain,
        is_payment_page: true,
        mode,
        payment_methods: page.payment_methods,
        status: 'active',
        created_at: page.created_at,
      },
    }, { upsert: true });
  }
}

const verificationOf = (challenge: { record: string; value: string } | undefined) => (challenge ? { ...challenge, verified_at: null } : null);
