import { PAYMENT_PAGES, SDK_KEYS, STORES, type RecipientView } from '@pss/contracts';
import { expectReplayedTwice, replayedTwice, storedEventsOn } from '@pss/testkit';
import { DEFAULT_SDK_CONFIG } from './sdk-config';
import type { PaymentPageRecord, StoreEvent } from './store.events';
import { StoreProjection } from './store.projection';

const stored = storedEventsOn<StoreEvent>('store-s1');

const page = (id: string, path: string, createdAt: string): PaymentPageRecord => ({
  id,
  url_pattern: `https://loja.example${path}*`,
  url: `https://loja.example${path}`,
  payment_methods: ['card'],
  created_at: createdAt,
});
const recipient = (id: string, label: string): RecipientView => ({
  id,
  method: 'pix',
  key_masked: '***.456.789-**',
  key_hash: 'c'.repeat(64),
  label,
  active: true,
  created_at: 'T1',
});

const created = stored('StoreCreated', {
  storeId: 's1',
  orgId: 'o1',
  domain: 'loja.example',
  safeSlug: 'loja-example',
  sdkKey: 'pk_1',
  profile: { name: 'Loja', country: 'BR', timezone: 'America/Sao_Paulo', emergency_contact: null },
  sdkConfig: DEFAULT_SDK_CONFIG,
  recipients: [recipient('rc1', 'Conta principal')],
  pages: [page('pg1', '/checkout', 'T1')],
  createdAt: 'T1',
});

/** Every store event handled twice in a row, then the whole log again: the same stores, pages and keys as once. */
describe('StoreProjection replayed twice', () => {
  it('shows the store as last updated, and each payment page in the store’s mode, added before or after it changed', async () => {
    const events = [
      created,
      stored('PaymentPagesAdded', { storeId: 's1', pages: [page('pg2', '/pagamento', 'T2')], addedAt: 'T2' }),
      stored('StoreUpdated', { storeId: 's1', profile: { name: 'Loja Nova' }, sdkConfig: { mode: 'block', developer_mode: true }, updatedAt: 'T3' }),
      stored('PaymentPagesAdded', { storeId: 's1', pages: [page('pg3', '/pix', 'T4')], addedAt: 'T4' }),
      stored('StoreUpdated', { storeId: 's1', recipients: [recipient('rc2', 'Conta nova')], updatedAt: 'T5' }),
    ];
    const twice = await replayedTwice(StoreProjection, events);
    expect(twice[STORES]).toEqual([
      expect.objectContaining({
        _id: 's1',
        org_id: 'o1',
        name: 'Loja Nova',
        country: 'BR',
        timezone: 'America/Sao_Paulo',
        emergency_contact: null,
        domain: 'loja.example',
        status: 'active',
        sdk_key: 'pk_1',
        safe_slug: 'loja-example',
        created_at: 'T1',
        updated_at: 'T5',
        sdk_config: { ...DEFAULT_SDK_CONFIG, mode: 'block', developer_mode: true, updated_at: 'T3' },
        recipients: [recipient('rc2', 'Conta nova')],
      }),
    ]);
    expect(twice[PAYMENT_PAGES]).toEqual(
      ['pg1', 'pg2', 'pg3'].map((id) => expect.objectContaining({ _id: id, store_id: 's1', org_id: 'o1', domain: 'loja.example', mode: 'block', status: 'active', is_payment_page: true })),
    );
    expect(twice[PAYMENT_PAGES][2]).toEqual(expect.objectContaining({ url: 'https://loja.example/pix', url_pattern: 'https://loja.example/pix*', payment_methods: ['card'], created_at: 'T4' }));
  });

  it('keeps every rotated key valid until its grace period ends, the newest without end, and a suspension', async () => {
    const events = [
      created,
      stored('SdkKeyRotated', { storeId: 's1', sdkKey: 'pk_2', previousKey: 'pk_1', previousKeyValidUntil: 'T3', rotatedAt: 'T2' }),
      stored('SdkKeyRotated', { storeId: 's1', sdkKey: 'pk_3', previousKey: 'pk_2', previousKeyValidUntil: 'T5', rotatedAt: 'T4' }),
      stored('StoreSuspended', { storeId: 's1', suspendedAt: 'T6' }),
    ];
    const twice = await replayedTwice(StoreProjection, events);
    expect(twice[STORES]).toEqual([expect.objectContaining({ _id: 's1', sdk_key: 'pk_3', status: 'suspended', updated_at: 'T6' })]);
    expect(twice[SDK_KEYS]).toEqual([
      expect.objectContaining({ _id: 'pk_1', store_id: 's1', org_id: 'o1', valid_until: 'T3' }),
      expect.objectContaining({ _id: 'pk_2', store_id: 's1', org_id: 'o1', valid_until: 'T5' }),
      expect.objectContaining({ _id: 'pk_3', store_id: 's1', org_id: 'o1', valid_until: null }),
    ]);
  });

  it('shows a production store\'s challenge, its verification, and a claim lost to another store (issue 29, item 9d)', async () => {
    const challenge = { record: '_pss-challenge.loja.example', value: `pss-verify=${'c'.repeat(32)}` };
    const production = stored('StoreCreated', { ...(created.data as object), environment: 'production', domainChallenge: challenge } as never);
    await expectReplayedTwice(StoreProjection, [production], STORES, [{ _id: 's1', domain_claim: 'unverified', domain_verification: { ...challenge, verified_at: null } }]);
    const verified = stored('DomainVerified', { storeId: 's1', domain: 'loja.example', verifiedAt: 'T2' });
    await expectReplayedTwice(StoreProjection, [production, verified], STORES, [{ _id: 's1', domain_claim: 'verified', domain_verification: { ...challenge, verified_at: 'T2' }, updated_at: 'T2' }]);
    const lost = stored('DomainClaimLost', { storeId: 's1', domain: 'loja.example', lostAt: 'T3' });
    await expectReplayedTwice(StoreProjection, [production, lost], STORES, [{ _id: 's1', domain_claim: 'lost', domain_verification: { ...challenge, verified_at: null }, updated_at: 'T3' }]);
  });

  it('derives the challenge of a store created before there were any, and shows none for a staging store', async () => {
    await expectReplayedTwice(StoreProjection, [created], STORES, [
      { _id: 's1', domain_claim: 'unverified', domain_verification: { record: '_pss-challenge.loja.example', value: expect.stringMatching(/^pss-verify=[0-9a-f]{32}$/), verified_at: null } },
    ]);
    const staging = stored('StoreCreated', { ...(created.data as object), environment: 'staging' } as never);
    await expectReplayedTwice(StoreProjection, [staging], STORES, [{ _id: 's1', domain_claim: 'unverified', domain_verification: null }]);
  });
});
