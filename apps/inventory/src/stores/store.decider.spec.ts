import { deciderSpec } from '@pss/testkit';
import { changeOf, REMEMBERED_CHANGES, storeDecider, type StoreCommand } from './store.decider';
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
  environment: 'production',
  sdkKey: `pk_live_${'a'.repeat(32)}`,
  profile: {},
  sdkConfig: {},
  recipients: [],
  pages: [],
  challengeValue: `pss-verify=${'c'.repeat(32)}`,
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
        domainChallenge: { record: '_pss-challenge.loja.example.com', value: `pss-verify=${'c'.repeat(32)}` },
        createdAt: at.toISOString(),
      }),
    });
  });

  it('refuses a domain that is not a public host name', () => {
    spec.given([]).when({ ...create, domain: 'intranet' }).thenThrows('validation_error', /domain/);
  });

  it('refuses a local domain in production, saying to create a staging store', () => {
    for (const domain of ['localhost', 'http://127.0.0.1:3000/checkout', '[::1]:8080', 'shop.localhost', 'loja.test']) {
      spec.given([]).when({ ...create, domain }).thenThrows('validation_error', /domain is a local host: .*create a staging store: \\"environment\\": \\"staging\\"/);
    }
  });

  it('takes a local domain, keeping its port, in a staging store, and records the environment', () => {
    const cases = [
      ['http://localhost:3000/checkout', 'localhost:3000'],
      ['127.0.0.1:8080', '127.0.0.1:8080'],
      ['[::1]', '[::1]'],
      ['Loja.Test', 'loja.test'],
      ['https://staging.Loja.Example.com:8443', 'staging.loja.example.com:8443'],
    ];
    for (const [input, domain] of cases) {
      const [event] = storeDecider.decide({ ...create, environment: 'staging', domain: input }, storeDecider.initialState());
      expect(event.data).toEqual(expect.objectContaining({ domain, environment: 'staging' }));
    }
    spec.given([]).when({ ...create, environment: 'staging', domain: 'not a host' }).thenThrows('validation_error', /localhost:3000/);
  });

  it('keeps an expected iframe origin as an origin and a host name as a host; local ones only in staging', () => {
    const sdkConfig = { expected_iframe_origins: ['HTTPS://Pay.Example.com:443/', '*.Pagar.me', 'https://pay.example.com:8443'] };
    const [event] = storeDecider.decide({ ...create, sdkConfig }, storeDecider.initialState());
    expect((event.data as { sdkConfig: { expected_iframe_origins: string[] } }).sdkConfig.expected_iframe_origins).toEqual([
      'https://pay.example.com',
      'pagar.me',
      'https://pay.example.com:8443',
    ]);
    for (const origin of ['https://pay.example.com/checkout', 'ftp://pay.example.com', 'https://*.example.com', 'https://user@pay.example.com']) {
      spec.given([]).when({ ...create, sdkConfig: { expected_iframe_origins: [origin] } }).thenThrows('validation_error', /is neither an origin/);
    }
    const local = { type: 'UpdateStore' as const, profile: {}, sdkConfig: { expected_iframe_origins: ['http://localhost:4000', 'psp.test'] }, at, newId };
    // `created` has no environment, as events written before staging stores: a production store.
    spec.given([created]).when(local).thenThrows('validation_error', /http:\/\/localhost:4000 is a local origin: .*create a staging store/);
    const staging: StoreEvent = { ...created, data: { ...(created.data as object), environment: 'staging' } } as StoreEvent;
    spec
      .given([staging])
      .when(local)
      .then([{ type: 'StoreUpdated', data: { storeId: 'store-1', sdkConfig: local.sdkConfig, updatedAt: at.toISOString() } }]);
  });

  it("refuses an SDK configuration outside the spec's limits on creation and on change, naming each field", () => {
    const update = (sdkConfig: object) => ({ type: 'UpdateStore' as const, profile: {}, sdkConfig, at, newId });
    for (const [sdkConfig, refusal] of [
      [{ calibration_seconds: 9 }, /calibration_seconds must be a whole number from 10 to 120/],
      [{ calibration_seconds: 30.5 }, /calibration_seconds must be a whole number from 10 to 120/],
      [{ overlay_check_interval_ms: 60001 }, /overlay_check_interval_ms must be a whole number from 500 to 60000/],
      [{ mode: 'enforce' }, /mode must be one of: monitor, block/],
      [{ installation_order_policy: 'loud' }, /installation_order_policy must be one of: warn, silent/],
      [{ release_channel: 'beta' }, /release_channel must be one of: stable, latest/],
      [{ developer_mode: 'yes' }, /developer_mode must be a boolean value/],
    ] as const) {
      spec.given([]).when({ ...create, sdkConfig: sdkConfig as never }).thenThrows('validation_error', refusal);
      spec.given([created]).when(update(sdkConfig)).thenThrows('validation_error', refusal);
    }
    spec
      .given([created])
      .when(update({ calibration_seconds: 120, overlay_check_interval_ms: 500 }))
      .then([{ type: 'StoreUpdated', data: { storeId: 'store-1', sdkConfig: { calibration_seconds: 120, overlay_check_interval_ms: 500 }, updatedAt: at.toISOString() } }]);
  });

  it('refuses a payment page that is not a path and a recipient method the API would refuse, naming the entry', () => {
    spec.given([]).when({ ...create, pages: [{ url_pattern: 'checkout', payment_methods: [] }] }).thenThrows('validation_error', /payment_pages\.0\.url_pattern.*starting with \//);
    spec.given([]).when({ ...create, recipients: [{ method: 'pix', key: 'a' }, { method: 'cartão', key: 'b' }] }).thenThrows('validation_error', /recipients\.1\.method/);
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

  it('rotates and adds pages once per command id: a redelivery changes nothing (issue 33, D9)', () => {
    const rotated: StoreEvent = {
      type: 'SdkKeyRotated',
      data: { storeId: 'store-1', sdkKey: 'pk_live_first', previousKey: `pk_live_${'a'.repeat(32)}`, previousKeyValidUntil: '2026-04-02T10:00:00.000Z', rotatedAt: at.toISOString(), commandId: 'cmd-1' },
    };
    spec.given([created]).when({ type: 'RotateSdkKey', sdkKey: 'pk_live_first', at, commandId: 'cmd-1' }).then([rotated]);
    spec.given([created, rotated]).when({ type: 'RotateSdkKey', sdkKey: 'pk_live_second', at, commandId: 'cmd-1' }).thenNothingHappens();
    spec.given([created, rotated]).when({ type: 'RotateSdkKey', sdkKey: 'pk_live_second', at, commandId: 'cmd-2' }).then([{ ...rotated, data: { ...rotated.data, sdkKey: 'pk_live_second', previousKey: 'pk_live_first', commandId: 'cmd-2' } }]);
    const added: StoreEvent = { type: 'PaymentPagesAdded', data: { storeId: 'store-1', pages: [], addedAt: at.toISOString(), commandId: 'cmd-3' } };
    spec.given([created, added]).when({ type: 'AddPaymentPages', pages: [{ url_pattern: '/pay', payment_methods: ['card'] }], at, newId, commandId: 'cmd-3' }).thenNothingHappens();
  });

  it('forgets command ids beyond the last REMEMBERED_CHANGES changes', () => {
    const rotation = (n: number): StoreEvent => ({
      type: 'SdkKeyRotated',
      data: { storeId: 'store-1', sdkKey: `pk_live_${n}`, previousKey: 'x', previousKeyValidUntil: at.toISOString(), rotatedAt: at.toISOString(), commandId: `cmd-${n}` },
    });
    const state = [created, ...Array.from({ length: REMEMBERED_CHANGES + 1 }, (_, n) => rotation(n))].reduce(storeDecider.evolve, storeDecider.initialState());
    expect(changeOf(state, 'cmd-0')).toBeUndefined();
    expect(changeOf(state, `cmd-${REMEMBERED_CHANGES}`)?.data).toMatchObject({ sdkKey: `pk_live_${REMEMBERED_CHANGES}` });
  });

  it('does not know a store that was never created', () => {
    spec.given([]).when({ type: 'SuspendStore', at }).thenThrows('not_found');
  });

  describe('domain verification (issue 29, item 9d)', () => {
    const challenge = { record: '_pss-challenge.loja.example.com', value: `pss-verify=${'c'.repeat(32)}` };
    const withChallenge = { ...created, data: { ...(created.data as object), environment: 'production', domainChallenge: challenge } } as StoreEvent;
    const verify = (txt: string[]): StoreCommand => ({ type: 'VerifyDomain', txt, at });
    const verified: StoreEvent = { type: 'DomainVerified', data: { storeId: 'store-1', domain: 'loja.example.com', verifiedAt: at.toISOString() } };
    const lost: StoreEvent = { type: 'DomainClaimLost', data: { storeId: 'store-1', domain: 'loja.example.com', lostAt: at.toISOString() } };

    it('verifies when the challenge record holds the store\'s value, among other TXT strings', () => {
      spec.given([withChallenge]).when(verify(['v=spf1 -all', challenge.value])).then([verified]);
    });

    it('refuses with what was expected and what was found, made printable', () => {
      const error = (() => {
        try {
          storeDecider.decide(verify(['pss-verify=someone-else\u202e', 'v=spf1 -all']), [withChallenge].reduce(storeDecider.evolve, storeDecider.initialState()));
        } catch (thrown) {
          return thrown as { code: string; message: string; details: unknown[] };
        }
      })();
      expect(error?.code).toBe('domain_not_verified');
      expect(error?.message).toBe(`Expected a TXT record ${challenge.record} with the value ${challenge.value}; found "pss-verify=someone-else", "v=spf1 -all"`);
      expect(error?.details).toEqual([{ field: 'domain', message: `${challenge.record} does not hold ${challenge.value}; found "pss-verify=someone-else", "v=spf1 -all"` }]);
      spec.given([withChallenge]).when(verify([])).thenThrows('domain_not_verified', /; found no TXT record \[/);
    });

    it('is verified once; a suspended store is not verified; a staging store has nothing to verify', () => {
      spec.given([withChallenge, verified]).when(verify([challenge.value])).thenNothingHappens();
      spec.given([withChallenge, { type: 'StoreSuspended', data: { storeId: 'store-1', suspendedAt: at.toISOString() } }]).when(verify([challenge.value])).thenThrows('conflict', /suspended/);
      const staging = { ...created, data: { ...(created.data as object), environment: 'staging' } } as StoreEvent;
      spec.given([staging]).when(verify([challenge.value])).thenThrows('conflict', /staging store has no domain to verify/);
    });

    it('gives a store created before challenges existed one derived from its id, the same every time', () => {
      const legacy = [created].reduce(storeDecider.evolve, storeDecider.initialState());
      expect(legacy.domainChallenge).toEqual({ record: '_pss-challenge.loja.example.com', value: expect.stringMatching(/^pss-verify=[0-9a-f]{32}$/) });
      spec.given([created]).when(verify([legacy.domainChallenge!.value])).then([verified]);
    });

    it('loses its claim once, may verify again later, and a claim whose store never existed loses nothing', () => {
      spec.given([withChallenge]).when({ type: 'LoseDomainClaim', at }).then([lost]);
      spec.given([withChallenge, lost]).when({ type: 'LoseDomainClaim', at }).thenNothingHappens();
      spec.given([withChallenge, lost]).when(verify([challenge.value])).then([verified]);
      spec.given([]).when({ type: 'LoseDomainClaim', at }).thenNothingHappens();
    });
  });
});
