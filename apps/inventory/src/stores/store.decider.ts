import { addMilliseconds, conflict, DomainError, notFound, validationError, type Decider } from '@pss/kernel';
import { assertStoreWritable, MAX_PAYMENT_PAGES, refusalDetail, STORE_SETTINGS_REFUSALS, type DomainClaimStatus, type RecipientView, type StoreEnvironment, type StoreStatus } from '@pss/contracts';
import { challengeNotMet, challengeOf, challengeRecord, type DomainChallenge } from './domain-challenge';
import { hashRecipientKey, maskRecipientKey } from './recipient-key';
import { DEFAULT_SDK_CONFIG, sdkConfigRefusals, type SdkConfigInput, type SdkConfigSettings } from './sdk-config';
import { PREVIOUS_KEY_VALIDITY_MS } from './sdk-key';
import { domainRefusal, expectedIframeRefusal, normalizeExpectedIframe, normalizeStoreDomain } from './store-hosts';
import type { PaymentPageRecord, StoreEvent, StoreProfile } from './store.events';

export const DEFAULT_COUNTRY = 'BR';
export const DEFAULT_TIMEZONE = 'America/Sao_Paulo';
/**
 * Key rotations and page additions the state remembers by command id: a redelivery comes within minutes (a
 * rebalance, a client's retry with its Idempotency-Key), not after this many later changes of the same store.
 */
export const REMEMBERED_CHANGES = 20;

export interface RecipientInput {
  method: string;
  key: string;
  label?: string;
}

export interface PageInput {
  url_pattern: string;
  payment_methods: string[];
}

interface Stamped {
  at: Date;
  /** New ids for recipients and pages: generated outside, so the decider stays pure. */
  newId: () => string;
}

export type StoreCommand =
  | (Stamped & {
      type: 'CreateStore';
      storeId: string;
      orgId: string;
      domain: string;
      environment: StoreEnvironment;
      sdkKey: string;
      profile: Partial<StoreProfile>;
      sdkConfig: SdkConfigInput;
      recipients: RecipientInput[];
      pages: PageInput[];
      /** The random half of a production store's DNS challenge; the record is named after the normalized domain. */
      challengeValue: string;
    })
  | (Stamped & {
      type: 'UpdateStore';
      profile: Partial<StoreProfile>;
      sdkConfig: SdkConfigInput;
      recipients?: RecipientInput[];
    })
  | { type: 'SuspendStore'; at: Date }
  | { type: 'RotateSdkKey'; sdkKey: string; at: Date; commandId?: string }
  | (Stamped & { type: 'AddPaymentPages'; pages: PageInput[]; commandId?: string })
  /** `txt`: the TXT strings DNS answered for the store's challenge record, looked up by the caller. */
  | { type: 'VerifyDomain'; txt: string[]; at: Date }
  | { type: 'LoseDomainClaim'; at: Date };

/** A change that must take effect once per command, and the event it took effect with. */
export type RememberedChange = Extract<StoreEvent, { type: 'SdkKeyRotated' | 'PaymentPagesAdded' }>;

export interface StoreState {
  storeId?: string;
  orgId?: string;
  status?: StoreStatus;
  domain?: string;
  environment?: StoreEnvironment;
  sdkKey?: string;
  profile?: StoreProfile;
  sdkConfig?: SdkConfigSettings;
  recipients: RecipientView[];
  pagePatterns: string[];
  domainChallenge?: DomainChallenge;
  domainClaim?: DomainClaimStatus;
  /** The last REMEMBERED_CHANGES rotations and page additions that carried a command id, oldest first. */
  changes: RememberedChange[];
}

/** What command `commandId` did to the store, when it was a rotation or page addition the state remembers. */
export const changeOf = (state: StoreState, commandId: string | undefined): RememberedChange | undefined =>
  commandId === undefined ? undefined : state.changes.find((event) => event.data.commandId === commandId);

export const storeDecider: Decider<StoreState, StoreCommand, StoreEvent> = {
  initialState: () => ({ recipients: [], pagePatterns: [], changes: [] }),

  decide(command, state) {
    if (command.type === 'CreateStore') return create(command, state);
    if (command.type === 'LoseDomainClaim') return loseDomainClaim(command, state);
    if (!state.storeId) throw notFound('Store');
    if (command.type === 'SuspendStore') {
      return state.status === 'suspended' ? [] : [{ type: 'StoreSuspended', data: { storeId: state.storeId, suspendedAt: command.at.toISOString() } }];
    }
    assertStoreWritable(state);
    if (command.type === 'VerifyDomain') return verifyDomain(command, state);
    // A command delivered again (Kafka redelivers after a rebalance) rotated or added already: a second key would
    // leave the store on one its caller was never shown, a second addition would refuse the caller's own pages.
    if ((command.type === 'RotateSdkKey' || command.type === 'AddPaymentPages') && changeOf(state, command.commandId)) return [];
    switch (command.type) {
      case 'UpdateStore':
        return update(command, state);
      case 'RotateSdkKey':
        return [
          {
            type: 'SdkKeyRotated',
            data: {
              storeId: state.storeId,
              sdkKey: command.sdkKey,
              previousKey: state.sdkKey!,
              previousKeyValidUntil: addMilliseconds(command.at, PREVIOUS_KEY_VALIDITY_MS).toISOString(),
              rotatedAt: command.at.toISOString(),
              ...(command.commandId ? { commandId: command.commandId } : {}),
            },
          },
        ];
      case 'AddPaymentPages':
        return [
          {
            type: 'PaymentPagesAdded',
            data: {
              storeId: state.storeId,
              pages: newPages(command, state.domain!, state.pagePatterns),
              addedAt: command.at.toISOString(),
              ...(command.commandId ? { commandId: command.commandId } : {}),
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'StoreCreated': {
        const { data } = event;
        return {
          storeId: data.storeId,
          orgId: data.orgId,
          status: 'active',
          domain: data.domain,
          environment: data.environment ?? 'production',
          sdkKey: data.sdkKey,
          profile: data.profile,
          sdkConfig: data.sdkConfig,
          recipients: data.recipients,
          pagePatterns: data.pages.map((page) => page.url_pattern),
          domainChallenge: challengeOf(data),
          domainClaim: 'unverified',
          changes: [],
        };
      }
      case 'StoreUpdated':
        return {
          ...state,
          profile: { ...state.profile!, ...event.data.profile },
          sdkConfig: { ...state.sdkConfig!, ...event.data.sdkConfig },
          recipients: event.data.recipients ?? state.recipients,
        };
      case 'StoreSuspended':
        return { ...state, status: 'suspended' };
      case 'SdkKeyRotated':
        return { ...state, sdkKey: event.data.sdkKey, changes: remembered(state.changes, event) };
      case 'PaymentPagesAdded':
        return { ...state, pagePatterns: [...state.pagePatterns, ...event.data.pages.map((page) => page.url_pattern)], changes: remembered(state.changes, event) };
      case 'DomainVerified':
        return { ...state, domainClaim: 'verified' };
      case 'DomainClaimLost':
        return { ...state, domainClaim: 'lost' };
    }
  },
};

function remembered(changes: RememberedChange[], event: RememberedChange): RememberedChange[] {
  return event.data.commandId ? [...changes, event].slice(-REMEMBERED_CHANGES) : changes;
}

function create(command: Extract<StoreCommand, { type: 'CreateStore' }>, state: StoreState): StoreEvent[] {
  if (state.storeId) throw new DomainError('conflict', 'Store already exists');
  const domain = normalizeStoreDomain(command.domain, command.environment);
  if (!domain) throw validationError([{ field: 'domain', message: domainRefusal(command.domain, command.environment) }]);
  const at = command.at.toISOString();
  return [
    {
      type: 'StoreCreated',
      data: {
        storeId: command.storeId,
        orgId: command.orgId,
        domain,
        environment: command.environment,
        safeSlug: domain.replace(/[^a-z0-9]+/g, '-'),
        sdkKey: command.sdkKey,
        profile: {
          name: command.profile.name?.trim() || domain,
          country: (command.profile.country ?? DEFAULT_COUNTRY).toUpperCase(),
          timezone: command.profile.timezone ?? DEFAULT_TIMEZONE,
          emergency_contact: command.profile.emergency_contact ?? null,
        },
        sdkConfig: { ...DEFAULT_SDK_CONFIG, ...normalizeConfig(command.sdkConfig, command.environment) },
        recipients: replaceRecipients([], command.recipients, at, command.newId),
        pages: newPages(command, domain, []),
        ...(command.environment === 'production' ? { domainChallenge: { record: challengeRecord(domain), value: command.challengeValue } } : {}),
        createdAt: at,
      },
    },
  ];
}

/**
 * The store's domain is proven when its challenge record holds its value. Whether another store owns the domain
 * already is the domain claims' to say, not the store's.
 */
function verifyDomain(command: Extract<StoreCommand, { type: 'VerifyDomain' }>, state: StoreState): StoreEvent[] {
  if (!state.domainChallenge) throw conflict('A staging store has no domain to verify: its domain is unique within its organization only');
  if (state.domainClaim === 'verified') return [];
  if (!command.txt.includes(state.domainChallenge.value)) throw challengeNotMet(state.domainChallenge, command.txt);
  return [{ type: 'DomainVerified', data: { storeId: state.storeId!, domain: state.domain!, verifiedAt: command.at.toISOString() } }];
}

/** A claim whose create died before the store existed has nothing to lose; a store loses its claim once. */
function loseDomainClaim(command: Extract<StoreCommand, { type: 'LoseDomainClaim' }>, state: StoreState): StoreEvent[] {
  if (!state.storeId || state.domainClaim === 'lost') return [];
  return [{ type: 'DomainClaimLost', data: { storeId: state.storeId, domain: state.domain!, lostAt: command.at.toISOString() } }];
}

function update(command: Extract<StoreCommand, { type: 'UpdateStore' }>, state: StoreState): StoreEvent[] {
  const at = command.at.toISOString();
  const profile = changedFields(state.profile!, {
    ...command.profile,
    // A blank name is the default again, as on creation: the domain.
    ...(command.profile.name !== undefined ? { name: command.profile.name.trim() || state.domain! } : {}),
    ...(command.profile.country !== undefined ? { country: command.profile.country.toUpperCase() } : {}),
  });
  const sdkConfig = changedFields(state.sdkConfig!, normalizeConfig(command.sdkConfig, state.environment!));
  const recipients = command.recipients && replaceRecipients(state.recipients, command.recipients, at, command.newId);
  const recipientsChanged = recipients !== undefined && JSON.stringify(recipients) !== JSON.stringify(state.recipients);
  if (!profile && !sdkConfig && !recipientsChanged) return [];
  return [
    {
      type: 'StoreUpdated',
      data: {
        storeId: state.storeId!,
        ...(profile ? { profile } : {}),
        ...(sdkConfig ? { sdkConfig } : {}),
        ...(recipientsChanged ? { recipients } : {}),
        updatedAt: at,
      },
    },
  ];
}

/** Within the spec's limits; expected iframe origins kept as they will be compared: origins serialized, host names normalized. */
function normalizeConfig(config: SdkConfigInput, environment: StoreEnvironment): SdkConfigInput {
  const refused = sdkConfigRefusals(config);
  if (refused.length) throw validationError(refused);
  if (!config.expected_iframe_origins) return config;
  const origins = config.expected_iframe_origins.map((origin) => normalizeExpectedIframe(origin, environment));
  const invalid = config.expected_iframe_origins.filter((_origin, index) => !origins[index]);
  if (invalid.length) {
    throw validationError(invalid.map((origin) => ({ field: 'expected_iframe_origins', message: expectedIframeRefusal(origin, environment) })));
  }
  return { ...config, expected_iframe_origins: [...new Set(origins as string[])] };
}

/** The API's request checks, here too for senders of the command without the API in between (the dashboard). */
const RECIPIENT_METHOD = /^[a-z0-9_-]{1,32}$/;
const PAGE_PATTERN = /^\/\S*$/;

/**
 * The list sent becomes the full list. A recipient already pinned (same method and key) keeps its id and
 * creation time, so a client re-sending the list it read changes nothing.
 */
function replaceRecipients(current: RecipientView[], wanted: RecipientInput[], at: string, newId: () => string): RecipientView[] {
  const seen = new Set<string>();
  const result: RecipientView[] = [];
  for (const [index, input] of wanted.entries()) {
    const method = input.method.trim().toLowerCase();
    if (!RECIPIENT_METHOD.test(method)) throw validationError([refusalDetail(STORE_SETTINGS_REFUSALS, `recipients.${index}.method`, 'method_form')]);
    const keyHash = hashRecipientKey(input.key);
    if (seen.has(`${method}:${keyHash}`)) continue;
    seen.add(`${method}:${keyHash}`);
    const existing = current.find((recipient) => recipient.method === method && recipient.key_hash === keyHash);
    result.push({
      id: existing?.id ?? newId(),
      method,
      key_masked: maskRecipientKey(input.key),
      key_hash: keyHash,
      label: input.label?.trim() ?? existing?.label ?? '',
      active: true,
      created_at: existing?.created_at ?? at,
    });
  }
  return result;
}

function newPages(command: Stamped & { pages: PageInput[] }, domain: string, existing: string[]): PaymentPageRecord[] {
  const taken = new Set(existing);
  const sent = new Set<string>();
  const pages = command.pages.map((page, index) => {
    const pattern = page.url_pattern.trim();
    if (!PAGE_PATTERN.test(pattern)) {
      throw validationError([refusalDetail(STORE_SETTINGS_REFUSALS, `payment_pages.${index}.url_pattern`, 'page_pattern')]);
    }
    // The same pattern twice in one request is a bad request, not a clash with the store's state.
    if (sent.has(pattern)) {
      throw validationError([{ field: `payment_pages.${index}.url_pattern`, message: `url_pattern ${pattern} is listed twice in this request` }]);
    }
    if (taken.has(pattern)) throw new DomainError('conflict', `A payment page with url_pattern ${pattern} already exists`);
    sent.add(pattern);
    taken.add(pattern);
    return {
      id: command.newId(),
      url_pattern: pattern,
      url: `https://${domain}${pattern.replace(/[*?].*$/, '')}`,
      payment_methods: [...new Set(page.payment_methods.map((method) => method.trim()))],
      created_at: command.at.toISOString(),
    };
  });
  if (taken.size > MAX_PAYMENT_PAGES) {
    throw validationError([refusalDetail(STORE_SETTINGS_REFUSALS, 'payment_pages', 'too_many')]);
  }
  return pages;
}

function changedFields<T extends object>(current: T, wanted: Partial<T>): Partial<T> | undefined {
  const changes: Partial<T> = {};
  for (const [key, value] of Object.entries(wanted) as [keyof T, T[keyof T]][]) {
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(current[key])) changes[key] = value;
  }
  return Object.keys(changes).length ? changes : undefined;
}
