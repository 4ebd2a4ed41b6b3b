import { deciderSpec } from '@pss/testkit';
import { domainClaimsDecider, type DomainClaimsEvent } from './domain-claims.decider';

const domain = 'loja.example';
const at = new Date('2026-06-01T12:00:00.000Z');
const claimedAt = at.toISOString();
const claim = (storeId: string, orgId: string) => ({ type: 'ClaimDomain' as const, domain, storeId, orgId, at });
const verify = (storeId: string, orgId: string) => ({ type: 'VerifyDomainOwner' as const, domain, storeId, orgId });
const release = (storeId: string) => ({ type: 'ReleaseDomainClaim' as const, domain, storeId });
const claimed = (storeId: string, orgId: string): DomainClaimsEvent => ({ type: 'DomainClaimed', data: { domain, storeId, orgId, claimedAt } });
const spec = deciderSpec(domainClaimsDecider);

describe('domain claims decider (issue 29, item 9d)', () => {
  it('lets organizations claim a domain side by side, so the first cannot keep the owner out', () => {
    spec.given([claimed('squatter', 'org-a')]).when(claim('shop', 'org-b')).then([claimed('shop', 'org-b')]);
  });

  it('refuses a second claim of one organization (the spec\'s 409), and is idempotent for the same store', () => {
    spec.given([claimed('s1', 'org-a')]).when(claim('s2', 'org-a')).thenThrows('conflict', /^A store with the domain loja.example already exists \[\]$/);
    spec.given([claimed('s1', 'org-a')]).when(claim('s1', 'org-a')).thenNothingHappens();
  });

  it('gives the domain to the store that verifies and takes the other claims over', () => {
    spec
      .given([claimed('squatter', 'org-a'), claimed('other', 'org-c'), claimed('shop', 'org-b')])
      .when(verify('shop', 'org-b'))
      .then([
        {
          type: 'DomainOwnerVerified',
          data: { domain, storeId: 'shop', orgId: 'org-b', takenOver: [{ storeId: 'squatter', orgId: 'org-a', claimedAt }, { storeId: 'other', orgId: 'org-c', claimedAt }] },
        },
      ]);
  });

  const owned: DomainClaimsEvent[] = [
    claimed('squatter', 'org-a'),
    claimed('shop', 'org-b'),
    { type: 'DomainOwnerVerified', data: { domain, storeId: 'shop', orgId: 'org-b', takenOver: [{ storeId: 'squatter', orgId: 'org-a', claimedAt }] } },
  ];

  it('refuses any claim and another verification once owned; the owner verifying again changes nothing', () => {
    spec.given(owned).when(claim('late', 'org-d')).thenThrows('conflict', /already exists/);
    spec.given(owned).when(verify('squatter', 'org-a')).thenThrows('conflict', /^The domain loja.example is already verified by another store \[\]$/);
    spec.given(owned).when(verify('shop', 'org-b')).thenNothingHappens();
  });

  it('remembers whom the verification took over, for a retry to finish with', () => {
    const state = owned.reduce(domainClaimsDecider.evolve, domainClaimsDecider.initialState());
    expect(state).toEqual({ owner: { storeId: 'shop', orgId: 'org-b' }, claims: [], takenOver: [{ storeId: 'squatter', orgId: 'org-a', claimedAt }] });
  });

  it('frees the domain when its owner is suspended, and takes back an unverified claim', () => {
    const released: DomainClaimsEvent = { type: 'DomainClaimReleased', data: { domain, storeId: 'shop' } };
    spec.given(owned).when(release('shop')).then([released]);
    spec.given([...owned, released]).when(claim('next', 'org-d')).then([claimed('next', 'org-d')]);
    spec.given([claimed('s1', 'org-a')]).when(release('s1')).then([{ type: 'DomainClaimReleased', data: { domain, storeId: 's1' } }]);
    spec.given([claimed('s1', 'org-a'), { type: 'DomainClaimReleased', data: { domain, storeId: 's1' } }]).when(claim('s2', 'org-a')).then([claimed('s2', 'org-a')]);
    spec.given(owned).when(release('squatter')).thenNothingHappens();
  });
});
