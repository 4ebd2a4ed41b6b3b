import type { DomainEvent } from '@pss/kernel';
import type { RecipientView, StoreEnvironment } from '@pss/contracts';
import type { DomainChallenge } from './domain-challenge';
import type { SdkConfigSettings } from './sdk-config';

/** A payment page as events record it; the read model adds store_id, domain and the store's mode. */
export interface PaymentPageRecord {
  id: string;
  url_pattern: string;
  url: string;
  payment_methods: string[];
  created_at: string;
}

export interface StoreProfile {
  name: string;
  country: string;
  timezone: string;
  emergency_contact: string | null;
}

/**
 * Store events. Value objects (profile, SDK config, recipients, pages) keep the API's field names: they are
 * the SDK and API contract, and renaming them twice would be a place for bugs.
 */
export type StoreEvent =
  | DomainEvent<
      'StoreCreated',
      {
        storeId: string;
        orgId: string;
        domain: string;
        /** Absent from events written before staging stores existed: those stores are production ones. */
        environment?: StoreEnvironment;
        safeSlug: string;
        sdkKey: string;
        profile: StoreProfile;
        sdkConfig: SdkConfigSettings;
        recipients: RecipientView[];
        pages: PaymentPageRecord[];
        /** A production store's DNS challenge; absent for staging stores and those created before issue 29's item 9d. */
        domainChallenge?: DomainChallenge;
        createdAt: string;
      }
    >
  | DomainEvent<
      'StoreUpdated',
      {
        storeId: string;
        profile?: Partial<StoreProfile>;
        sdkConfig?: Partial<SdkConfigSettings>;
        /** The full new list: recipients are a replace-set. */
        recipients?: RecipientView[];
        updatedAt: string;
      }
    >
  | DomainEvent<'StoreSuspended', { storeId: string; suspendedAt: string }>
  // commandId: the bus command that made the change, so its redelivery changes nothing (absent before issue 33).
  | DomainEvent<'SdkKeyRotated', { storeId: string; sdkKey: string; previousKey: string; previousKeyValidUntil: string; rotatedAt: string; commandId?: string }>
  | DomainEvent<'PaymentPagesAdded', { storeId: string; pages: PaymentPageRecord[]; addedAt: string; commandId?: string }>
  | DomainEvent<'DomainVerified', { storeId: string; domain: string; verifiedAt: string }>
  // Another store verified the domain: this store's claim ended (the winner is not named: it is another tenant's).
  | DomainEvent<'DomainClaimLost', { storeId: string; domain: string; lostAt: string }>;

/** Every kind of store event, once (the store projection and the audit log read them all). */
export const storeEventTypes: Record<StoreEvent['type'], true> = {
  StoreCreated: true,
  StoreUpdated: true,
  StoreSuspended: true,
  SdkKeyRotated: true,
  PaymentPagesAdded: true,
  DomainVerified: true,
  DomainClaimLost: true,
};

export const storeStream = (storeId: string): string => `store-${storeId}`;
