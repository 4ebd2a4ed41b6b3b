import { POLICIES, RULES, type PolicyDocument, type RuleDocument } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { MemoryReadStore } from '@pss/read-store';
import { findPolicy, findRule, listPolicies, listRules } from './policies';

const idOf = (n: number) => `0190a4b2-8d3c-7e1f-9a2b-${String(n).padStart(12, '0')}`;
const AT = '2026-11-20T12:00:00.000Z';

const policy = (n: number, fields: Partial<PolicyDocument> = {}): PolicyDocument => ({
  _id: idOf(n),
  org_id: 'org',
  store_id: null,
  name: `policy ${n}`,
  description: null,
  version: 1,
  active: true,
  mode: 'recommend',
  priority: n,
  match: {},
  conditions: {},
  action: 'needs_review',
  justification_template: null,
  expires_days: null,
  is_default: false,
  created_at: AT,
  updated_at: AT,
  ...fields,
});

const rule = (n: number, fields: Partial<RuleDocument> = {}): RuleDocument => ({
  _id: idOf(n),
  org_id: 'org',
  store_id: 's1',
  type: 'block',
  target: 'domain',
  value: `cdn${n}.example`,
  label: `Block cdn${n}.example`,
  active: true,
  created_at: new Date(Date.parse(AT) + n * 1000).toISOString(),
  updated_at: AT,
  ...fields,
});

describe("the policies and rules pages' reads", () => {
  it("lists the organization's policies in evaluation order, a store's own with the organization's, by the API's cursors", async () => {
    const store = new MemoryReadStore();
    const policies = store.collection<PolicyDocument>(POLICIES);
    for (let n = 1; n <= 51; n += 1) await policies.insertOne(policy(n, { priority: 100 - n }));
    await policies.insertOne(policy(60, { store_id: 's1', priority: 0 }));
    await policies.insertOne(policy(61, { store_id: 's2', priority: 0 }));
    await policies.insertOne(policy(62, { org_id: 'other', priority: -5 }));

    const first = await listPolicies(store, 'org', undefined);
    expect(first.items).toHaveLength(50);
    expect(first.items.slice(0, 3).map((doc) => doc.name)).toEqual(['policy 60', 'policy 61', 'policy 51']);
    const rest = await listPolicies(store, 'org', undefined, first.next_cursor!);
    expect(rest.items.map((doc) => doc.name)).toEqual(['policy 3', 'policy 2', 'policy 1']);
    expect(rest.next_cursor).toBeNull();

    const ofStore = await listPolicies(store, 'org', 's1');
    expect(ofStore.items.map((doc) => doc.store_id)).not.toContain('s2');
    expect(ofStore.items[0].name).toBe('policy 60');
    await expect(listPolicies(store, 'org', undefined, 'not-a-cursor')).rejects.toThrow(DomainError);

    expect(await findPolicy(store, 'org', idOf(62))).toBeNull();
    expect((await findPolicy(store, 'other', idOf(62)))?.name).toBe('policy 62');
  });

  it("lists the organization's rules newest first with GET /rules' filters", async () => {
    const store = new MemoryReadStore();
    const rules = store.collection<RuleDocument>(RULES);
    await rules.insertOne(rule(1));
    await rules.insertOne(rule(2, { type: 'allow' }));
    await rules.insertOne(rule(3, { active: false }));
    await rules.insertOne(rule(4, { store_id: 's2' }));
    await rules.insertOne(rule(5, { org_id: 'other' }));

    const values = async (filter: Parameters<typeof listRules>[2]) => (await listRules(store, 'org', filter)).items.map((doc) => doc.value);
    expect(await values({})).toEqual(['cdn4.example', 'cdn3.example', 'cdn2.example', 'cdn1.example']);
    expect(await values({ store_id: 's1', type: 'block', active: true })).toEqual(['cdn1.example']);
    expect(await values({ active: false })).toEqual(['cdn3.example']);
    expect(await findRule(store, 'org', idOf(5))).toBeNull();
  });
});
