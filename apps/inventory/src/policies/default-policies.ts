import { deterministicUuid } from '@pss/kernel';
import type { PolicyDefinition } from './policy.decider';

/** A policy every new organization starts with; `key` names it for good, whatever its wording becomes. */
export interface DefaultPolicy {
  key: string;
  definition: PolicyDefinition;
}

const FROM_THE_START = { active: true, expiresDays: null } as const;

/**
 * The defaults, in evaluation order: the threat list blocks, the two safe families are recommended for
 * authorization, and everything else waits for a person. Only the threat-list block acts by itself (`auto`);
 * the others recommend, so nothing is authorized without a review until the organization decides otherwise.
 */
export const DEFAULT_POLICIES: readonly DefaultPolicy[] = [
  {
    key: 'block-threat-list',
    definition: {
      ...FROM_THE_START,
      name: 'Block hosts in the threat list',
      description: 'Scripts served from a host on the threat list are blocked at once.',
      mode: 'auto',
      priority: 10,
      match: {},
      conditions: { in_threat_list: true },
      action: 'block',
      justificationTemplate: 'Host {domain} is in the threat list',
    },
  },
  {
    key: 'first-party-without-sensitive-fields',
    definition: {
      ...FROM_THE_START,
      name: 'Recommend first-party scripts that touch no sensitive field',
      description: "Scripts from the store's own origin that never read a payment or personal field.",
      mode: 'recommend',
      priority: 100,
      match: { origin: 'first_party' },
      conditions: { no_sensitive_field_access: true },
      action: 'authorize',
      justificationTemplate: 'First-party script from {domain}',
    },
  },
  {
    key: 'payment-providers',
    definition: {
      ...FROM_THE_START,
      name: 'Recommend known payment providers',
      description: 'Scripts of known payment providers, which a payment page needs.',
      mode: 'recommend',
      priority: 200,
      match: { category: ['payment'] },
      conditions: {},
      action: 'authorize',
      justificationTemplate: 'Payment provider {vendor} on {domain}',
    },
  },
  {
    key: 'review-everything-else',
    definition: {
      ...FROM_THE_START,
      name: 'Review everything else',
      description: 'Any script no other policy decided on waits for a review.',
      mode: 'recommend',
      priority: 1000,
      match: {},
      conditions: {},
      action: 'needs_review',
      justificationTemplate: null,
    },
  },
];

/** The same organization always gets the same ids for its defaults: seeding twice creates nothing new. */
export const defaultPolicyId = (orgId: string, key: string): string => deterministicUuid('default-policy', orgId, key);
