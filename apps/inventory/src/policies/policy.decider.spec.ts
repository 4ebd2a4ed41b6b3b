import { deciderSpec } from '@pss/testkit';
import { DEFAULT_POLICIES } from './default-policies';
import { policyDecider, type PolicyCommand, type PolicyDefinition, type PolicyEvent } from './policy.decider';

const at = new Date('2026-03-01T09:30:00.000Z');
const definition: PolicyDefinition = {
  name: ' Recommend known payment providers ',
  description: 'Scripts of known payment providers.',
  active: true,
  mode: 'recommend',
  priority: 200,
  match: { category: ['payment'] },
  conditions: {},
  action: 'authorize',
  justificationTemplate: 'Payment provider {vendor} on {domain}',
  expiresDays: null,
};
const create: PolicyCommand = { type: 'CreatePolicy', policyId: 'pol-1', orgId: 'org-1', storeId: null, definition, isDefault: true, at };
const created: PolicyEvent = {
  type: 'PolicyCreated',
  // The definition as given, its name trimmed.
  data: { ...definition, name: 'Recommend known payment providers', policyId: 'pol-1', orgId: 'org-1', storeId: null, version: 1, isDefault: true, createdAt: '2026-03-01T09:30:00.000Z' },
};
const spec = deciderSpec(policyDecider);
const changed = (change: Partial<PolicyDefinition> | Record<string, unknown>): PolicyCommand =>
  ({ ...create, definition: { ...definition, ...change } }) as PolicyCommand;

describe('policy decider', () => {
  it('creates a policy at version 1 with every field of the Policy resource', () => {
    spec.given([]).when(create).then([created]);
  });

  it('creates a store-level policy', () => {
    spec
      .given([])
      .when({ ...create, storeId: 'store-1', isDefault: false })
      .then([{ ...created, data: { ...created.data, storeId: 'store-1', isDefault: false } }]);
  });

  it('cannot be created twice', () => {
    spec.given([created]).when(create).thenThrows('conflict');
  });

  it.each([
    ['an empty name', { name: '  ' }, /name must be 1 to 120/],
    ['a 121-character name', { name: 'x'.repeat(121) }, /name must be 1 to 120/],
    ['a description over 1000 characters', { description: 'd'.repeat(1001) }, /description/],
    ['an unknown mode', { mode: 'manual' }, /mode must be one of recommend, auto/],
    ['an unknown action', { action: 'allow' }, /action must be one of authorize, needs_review, block/],
    ['a fractional priority', { priority: 1.5 }, /priority must be an integer/],
    ['a template over 2000 characters', { justificationTemplate: 't'.repeat(2001) }, /justification_template/],
    ['zero expiry days', { expiresDays: 0 }, /expires_days must be a positive integer/],
    ['an unknown match key', { match: { host: ['x'] } }, /match.host is not a known match key/],
    ['an unknown condition', { conditions: { risky: true } }, /conditions.risky is not a known condition/],
    // The API's body rules, for a sender other than the gateway (the dashboard).
    ['an origin that is none', { match: { origin: 'elsewhere' } }, /match.origin must be one of first_party, third_party, inline, any/],
    ['an empty match list', { match: { domain: [] } }, /match.domain must be a list of 1 to 50 items: leave it out to match any/],
    ['51 categories', { match: { category: Array.from({ length: 51 }, (_, n) => `c${n}`) } }, /match.category must be a list of 1 to 50/],
    ['a blank vendor', { match: { vendor_id: [''] } }, /match.vendor_id items must be 1 to 64 characters/],
    ['a domain that is no host name', { match: { domain: ['https://cdn.example'] } }, /match.domain items must be host names, optionally starting with \*\./],
    ['a path glob without its slash', { match: { path_glob: ['js/**'] } }, /match.path_glob items must be path globs starting with \//],
    ['a prevalence over 1', { conditions: { prevalence_min: 1.5 } }, /conditions.prevalence_min must be a number from 0 to 1/],
    ['a size that is no number', { conditions: { max_size_kb: null } }, /conditions.max_size_kb must be a number of at least 0/],
    ['a yes/no condition that is text', { conditions: { same_origin: 'yes' } }, /conditions.same_origin must be true or false/],
  ])('refuses %s', (_case, change, message) => {
    spec.given([]).when(changed(change)).thenThrows('validation_error', message);
  });

  it.each(DEFAULT_POLICIES.map((policy) => [policy.key, policy] as const))('accepts the default policy %s', (_key, policy) => {
    expect(policyDecider.decide({ ...create, definition: policy.definition }, policyDecider.initialState())).toHaveLength(1);
  });
});

describe('policy decider: update and delete', () => {
  const update = (changes: Partial<PolicyDefinition>): PolicyCommand => ({ type: 'UpdatePolicy', orgId: 'org-1', changes, at });
  const updated = (changes: Partial<PolicyDefinition>, version: number): PolicyEvent => ({
    type: 'PolicyUpdated',
    data: { policyId: 'pol-1', changes, version, updatedAt: at.toISOString() },
  });

  it.each([
    ['match', { match: { category: ['payment', 'cdn'] } }],
    ['conditions', { conditions: { has_integrity_attr: true } }],
    ['action', { action: 'needs_review' as const }],
    ['justification_template', { justificationTemplate: 'Provider {vendor}' }],
    ['expires_days', { expiresDays: 90 }],
  ])('increments the version when %s changes', (_field, changes) => {
    spec.given([created]).when(update(changes)).then([updated(changes, 2)]);
  });

  it('increments the version once for a request changing several versioned fields', () => {
    const changes = { action: 'block' as const, expiresDays: 30 };
    spec.given([created]).when(update(changes)).then([updated(changes, 2)]);
  });

  it('keeps the version for name, description, mode, priority and active', () => {
    const changes = { name: 'Payments', description: null, mode: 'auto' as const, priority: 5, active: false };
    spec.given([created]).when(update(changes)).then([updated(changes, 1)]);
  });

  it('records nothing when nothing changes', () => {
    spec.given([created]).when(update({ match: { category: ['payment'] }, priority: 200 })).thenNothingHappens();
  });

  it('records nothing for the same match and conditions written with their keys in another order', () => {
    const given: PolicyEvent = { ...created, data: { ...created.data, match: { domain: ['a.com'], origin: 'any' }, conditions: { same_origin: true, max_size_kb: 100 } } };
    spec.given([given]).when(update({ match: { origin: 'any', domain: ['a.com'] }, conditions: { max_size_kb: 100, same_origin: true } })).thenNothingHappens();
  });

  it('validates the policy it would become', () => {
    spec.given([created]).when(update({ name: '' })).thenThrows('validation_error', /name must be 1 to 120/);
  });

  it('deletes once; a deleted policy, or another organization’s, is not found', () => {
    const deleted: PolicyEvent = { type: 'PolicyDeleted', data: { policyId: 'pol-1', deletedAt: at.toISOString() } };
    spec.given([created]).when({ type: 'DeletePolicy', orgId: 'org-1', at }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeletePolicy', orgId: 'org-1', at }).thenThrows('not_found');
    spec.given([created, deleted]).when(update({ priority: 1 })).thenThrows('not_found');
    spec.given([created]).when({ type: 'UpdatePolicy', orgId: 'org-2', changes: { priority: 1 }, at }).thenThrows('not_found');
  });
});
