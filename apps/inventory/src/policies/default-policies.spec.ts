import { DEFAULT_POLICIES, defaultPolicyId } from './default-policies';

describe('default policies', () => {
  const org = '0190c0de-0000-7000-8000-000000000001';

  it('have ids derived from the organization and the key: the same every time, distinct otherwise', () => {
    const ids = DEFAULT_POLICIES.map(({ key }) => defaultPolicyId(org, key));
    expect(DEFAULT_POLICIES.map(({ key }) => defaultPolicyId(org, key))).toEqual(ids);
    expect(new Set(ids).size).toBe(DEFAULT_POLICIES.length);
    expect(defaultPolicyId('0190c0de-0000-7000-8000-000000000002', DEFAULT_POLICIES[0].key)).not.toBe(ids[0]);
  });

  it('are evaluated in a fixed order, the catch-all last', () => {
    const priorities = DEFAULT_POLICIES.map(({ definition }) => definition.priority);
    expect(new Set(priorities).size).toBe(priorities.length);
    expect(Math.max(...priorities)).toBe(DEFAULT_POLICIES.find(({ key }) => key === 'review-everything-else')!.definition.priority);
  });
});
