import type { OwnerInviteOutcome } from '@pss/contracts';
import { deciderSpec } from '@pss/testkit';
import { organizationDecider, type OrganizationCommand, type OrganizationEvent } from './organization.decider';

const at = new Date('2026-03-01T09:30:00.000Z');
const create: OrganizationCommand = {
  type: 'CreateOrganization',
  orgId: 'org-1',
  name: ' Acme Payments ',
  plan: 'growth',
  billingMode: 'partner',
  ownerEmail: 'Owner@Acme.example',
  parent: null,
  at,
};
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: {
    orgId: 'org-1',
    name: 'Acme Payments',
    plan: 'growth',
    billingMode: 'partner',
    parentOrgId: null,
    ownerEmail: 'owner@acme.example',
    createdAt: '2026-03-01T09:30:00.000Z',
  },
};
const spec = deciderSpec(organizationDecider);

describe('organization decider', () => {
  it('creates a top-level organization', () => {
    spec.given([]).when(create).then([created]);
  });

  it('creates a child of a top-level organization', () => {
    spec
      .given([])
      .when({ ...create, parent: { orgId: 'partner-1', parentOrgId: null } })
      .then([{ ...created, data: { ...created.data, parentOrgId: 'partner-1' } }]);
  });

  it('refuses a grandchild: one level of nesting only', () => {
    spec.given([]).when({ ...create, parent: { orgId: 'child-1', parentOrgId: 'partner-1' } }).thenThrows('nesting_limit');
  });

  it.each([
    ['a one-character name', { name: 'A' }, /2 to 120/],
    ['a 121-character name', { name: 'x'.repeat(121) }, /2 to 120/],
    ['an unknown plan', { plan: 'platinum' }, /plan must be one of/],
    ['an unknown billing mode', { billingMode: 'card' }, /billing_mode must be one of/],
    ['a malformed owner e-mail', { ownerEmail: 'not-an-email' }, /owner_email/],
  ])('refuses %s', (_case, change, message) => {
    spec.given([]).when({ ...create, ...change }).thenThrows('validation_error', message);
  });

  it('accepts names of exactly 2 and 120 characters', () => {
    spec.given([]).when({ ...create, name: 'AB' }).then([{ ...created, data: { ...created.data, name: 'AB' } }]);
    expect(organizationDecider.decide({ ...create, name: 'y'.repeat(120) }, {})).toHaveLength(1);
  });

  it('cannot be created twice', () => {
    spec.given([created]).when(create).thenThrows('conflict');
  });

  describe('owner invitation', () => {
    const later = new Date('2026-03-01T09:30:01.000Z');
    const recorded = (outcome: OwnerInviteOutcome): OrganizationEvent => ({
      type: 'OwnerInvitationRecorded',
      data: { orgId: 'org-1', outcome, at: '2026-03-01T09:30:01.000Z' },
    });
    const withoutOwner: OrganizationEvent = { ...created, data: { ...created.data, ownerEmail: null } } as OrganizationEvent;

    it.each(['sent', 'failed', 'existing_user'] as const)('records "%s" for an organization with an owner e-mail', (outcome) => {
      spec.given([created]).when({ type: 'RecordOwnerInvitation', outcome, at: later }).then([recorded(outcome)]);
    });

    it('records "skipped" for an organization without an owner e-mail', () => {
      spec.given([withoutOwner]).when({ type: 'RecordOwnerInvitation', outcome: 'skipped', at: later }).then([recorded('skipped')]);
    });

    it('records it once: the first outcome stands', () => {
      spec.given([created, recorded('failed')]).when({ type: 'RecordOwnerInvitation', outcome: 'sent', at: later }).thenNothingHappens();
    });

    it('refuses an outcome that contradicts the owner e-mail', () => {
      spec.given([created]).when({ type: 'RecordOwnerInvitation', outcome: 'skipped', at: later }).thenThrows('conflict', /skipped/);
      spec.given([withoutOwner]).when({ type: 'RecordOwnerInvitation', outcome: 'sent', at: later }).thenThrows('conflict', /missing/);
    });

    it('needs the organization to exist', () => {
      spec.given([]).when({ type: 'RecordOwnerInvitation', outcome: 'sent', at: later }).thenThrows('not_found');
    });
  });
});
