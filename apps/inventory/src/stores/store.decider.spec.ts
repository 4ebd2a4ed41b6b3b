import { deciderSpec } from '@pss/testkit';
import { storeDecider, type StoreCommand } from './store.decider';
import { DEFAULT_SDK_CONFIG } from './sdk-config';
import type { StoreEvent } from './store.events';

const at = new Date('2026-04-01T10:00:00.000Z');
let counter = 0;
const newId = () => `id-${++counter}`;
const create: StoreCommand = {
  type: 'CreateStore',
  storeId: 'store-1',
  orgId: 'org-1',
  domain: 'https://Loja.Example.com/checkout',
  sdkKey: `pk_live_${'a'.repeat(32)}`,
  profile: {},
  sdkConfig: {},
  recipients: [],
  pages: [],
  at,
  newId,
};
/** The store as the event store holds it after `create`, written out rather than decided by the decider under test. */
const created: StoreEvent = {
  type: 'StoreCreated',
  data: {
    storeId: 'store-1',
    orgId: 'org-1',
    domain: 'loja.example.com',
    safeSlug: 'loja-example-com',
    sdkKey: `pk_live_${'a'.repeat(32)}`,
    profile: { name: 'loja.example.com', country: 'BR', timezone: 'America/Sao_Paulo', emergency_contact: null },
    sdkConfig: {
      mode: 'monitor',
      calibration_seconds: 30,
      overlay_check_interval_ms: 2000,
      installation_order_policy: 'warn',
      payment_methods: [],
      sensitive_fields: null,
      expected_iframe_origins: [],
      allowed_service_workers: [],
      gtm_containers: [],
      developer_mode: false,
      release_channel: 'stable',
    },
    recipients: [],
    pages: [],
    createdAt: at.toISOString(),
  },
};
const spec = deciderSpec(storeDecider);

describe('store decider', () => {
  it('creates a store with a normalized domain, the default profile and the default SDK config', () => {
    const [event] = storeDecider.decide(create, storeDecider.initialState());
    expect(event).toEqual({
      type: 'StoreCreated',
      data: expect.objectContaining({
        domain: 'loja.example.com',
        safeSlug: 'loja-example-com',
        profile: { name: 'loja.example.com', country: 'BR', timezone: 'America/Sao_Paulo', emergency_contact: null },
        sdkConfig: DEFAULT_SDK_CONFIG,
        createdAt: at.toISOString(),
      }),
    });
  });

  it('refuses a domain that is not a public host name', () => {
    spec.given([]).when({ ...create, domain: 'intranet' }).thenThrows('validation_error', /domain/);
  });

  it('refuses the same pattern twice in one request (400), and a pattern the store already has (409)', () => {
    const page = { url_pattern: '/checkout', payment_methods: [] };
    spec.given([]).when({ ...create, pages: [page, { ...page, url_pattern: ' /checkout ' }] }).thenThrows('validation_error', /listed twice/);
    const added: StoreEvent = {
      type: 'PaymentPagesAdded',
      data: {
        storeId: 'store-1',
        pages: [{ id: 'page-1', url_pattern: '/checkout', url: 'https://loja.example.com/checkout', payment_methods: [], created_at: at.toISOString() }],
        addedAt: at.toISOString(),
      },
    };
    spec.given([created, added]).when({ type: 'AddPaymentPages', pages: [page], at, newId }).thenThrows('conflict', /url_pattern \/checkout already exists/);
  });

  it('records only what an update changes, and nothing when nothing changes', () => {
    const update: StoreCommand = { type: 'UpdateStore', profile: { name: 'loja.example.com' }, sdkConfig: { mode: 'monitor' }, at, newId };
    spec.given([created]).when(update).thenNothingHappens();
    spec
      .given([created])
      .when({ ...update, sdkConfig: { mode: 'block', calibration_seconds: 30 } })
      .then([{ type: 'StoreUpdated', data: { storeId: 'store-1', sdkConfig: { mode: 'block' }, updatedAt: at.toISOString() } }]);
  });

  it('gives a store its domain as name again when an update sends a blank name, as creation does', () => {
    const renamed: StoreEvent = { type: 'StoreUpdated', data: { storeId: 'store-1', profile: { name: 'Loja' }, updatedAt: at.toISOString() } };
    spec
      .given([created, renamed])
      .when({ type: 'UpdateStore', profile: { name: '   ' }, sdkConfig: {}, at, newId })
      .then([{ type: 'StoreUpdated', data: { storeId: 'store-1', profile: { name: 'loja.example.com' }, updatedAt: at.toISOString() } }]);
  });

  it('suspends once and refuses changes to a suspended store', () => {
    const suspended: StoreEvent = { type: 'StoreSuspended', data: { storeId: 'store-1', suspendedAt: at.toISOString() } };
    spec.given([created]).when({ type: 'SuspendStore', at }).then([suspended]);
    spec.given([created, suspended]).when({ type: 'SuspendStore', at }).thenNothingHappens();
    spec.given([created, suspended]).when({ type: 'RotateSdkKey', sdkKey: 'pk_live_b', at }).thenThrows('conflict', /suspended/);
  });

  it('keeps the previous SDK key valid for 24 hours after a rotation', () => {
    spec
      .given([created])
      .when({ type: 'RotateSdkKey', sdkKey: 'pk_live_new', at })
      .then([
        {
          type: 'SdkKeyRotated',
          data: {
            storeId: 'store-1',
            sdkKey: 'pk_live_new',
            previousKey: `pk_live_${'a'.repeat(32)}`,
            previousKeyValidUntil: '2026-04-02T10:00:00.000Z',
            rotatedAt: at.toISOString(),
          },
        },
      ]);
  });

  it('does not know a store that was never created', () => {
    spec.given([]).when({ type: 'SuspendStore', at }).thenThrows('not_found');
  });
});
