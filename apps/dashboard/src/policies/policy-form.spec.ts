import type { PolicyDocument } from '@pss/contracts';
import { DomainError, validationError } from '@pss/kernel';
import { allows, type Role } from '../access/roles';
import { translator } from '../i18n/catalogue';
import { policyChanges, policyCreation, policyFormOf, policyRequirement, formRefusal } from './policy-form';
import { DEACTIVATION, ruleChanges, ruleCreation } from './rule-form';

const t = translator('pt-BR');

const PROVIDERS: PolicyDocument = {
  _id: 'p1',
  org_id: 'org',
  store_id: 's1',
  name: 'Payment providers',
  description: null,
  version: 3,
  active: true,
  mode: 'auto',
  priority: 10,
  match: { origin: 'third_party', domain: ['*.mercadopago.com', 'js.stripe.com'] },
  conditions: { not_in_threat_list: true, same_origin: false, max_size_kb: 500 },
  action: 'authorize',
  justification_template: 'Payment provider {vendor} on {domain}',
  expires_days: 365,
  is_default: false,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
};

describe('the policy and rule forms', () => {
  it("sends a new policy as the command's input: lists by line, a blank key matching any, yes/no conditions, the scope", () => {
    const input = policyCreation({
      name: 'CDN',
      description: ' ',
      store_id: 'organization',
      mode: 'recommend',
      action: 'block',
      priority: '',
      'match.origin': '',
      'match.domain': 'cdn.example\r\n\r\n *.tracker.example \n',
      'match.path_glob': '',
      'conditions.in_threat_list': 'yes',
      'conditions.has_integrity_attr': 'no',
      'conditions.same_origin': '',
      'conditions.prevalence_min': '0.5',
      'conditions.max_size_kb': '',
      justification_template: '',
      expires_days: '',
      active: 'on',
    });
    expect(input).toEqual({
      name: 'CDN',
      description: null,
      store_id: null,
      mode: 'recommend',
      action: 'block',
      active: true,
      match: { domain: ['cdn.example', '*.tracker.example'] },
      conditions: { in_threat_list: true, has_integrity_attr: false, prevalence_min: 0.5 },
      justification_template: null,
      expires_days: null,
    });
    expect(policyCreation({ store_id: 's1' }).store_id).toBe('s1');
  });

  it('sends what was typed in a number field for the command to judge, and an unticked box as inactive', () => {
    const input = policyChanges({ priority: 'first', expires_days: '0', 'conditions.max_size_kb': 'big' });
    expect(input.priority).toBeNaN();
    expect(input.expires_days).toBe(0);
    expect(input.conditions!.max_size_kb).toBeNaN();
    expect(input.active).toBe(false);
  });

  it('shows a policy so that saving it untouched sends back exactly its settings (no new version)', () => {
    const form = policyFormOf(PROVIDERS);
    expect(form['match.domain']).toBe('*.mercadopago.com\njs.stripe.com');
    expect(form['conditions.same_origin']).toBe('no');
    expect(form['conditions.in_threat_list']).toBe('');
    const { name, description, active, mode, priority, match, conditions, action, justification_template, expires_days } = PROVIDERS;
    expect(policyChanges(form)).toEqual({ name, description, active, mode, priority, match, conditions, action, justification_template, expires_days });
  });

  it("shows a refused form again with a match's refusal in the person's language and others in the command's words, or about no field, and lets anything else through", () => {
    const typed = { priority: 'first' };
    const refused = validationError([
      { field: 'priority', message: 'priority must be an integer' },
      { field: 'match.colour', message: 'match.colour is not a known match key' },
      { field: 'match.domain', message: 'match.domain items must be host names, optionally starting with *.' },
    ]);
    expect(formRefusal(t, refused, typed)).toEqual({
      status: 400,
      state: {
        values: typed,
        refused: {
          priority: 'priority must be an integer',
          'match.colour': 'match.colour is not a known match key',
          'match.domain': 'cada item deve ser um nome de servidor, sem https:// nem caminho, podendo começar com *.',
        },
      },
    });
    expect(formRefusal(t, new DomainError('conflict', 'A block rule for domain cdn.example already exists for this store'), typed)).toEqual({
      status: 409,
      state: { values: typed, reason: 'A block rule for domain cdn.example already exists for this store' },
    });
    expect(formRefusal(t, new DomainError('not_found', 'Policy not found'), typed).status).toBe(404);
    expect(() => formRefusal(t, new Error('bus down'), typed)).toThrow('bus down');
    expect(() => formRefusal(t, new DomainError('service_unavailable', 'later'), typed)).toThrow('later');
  });

  it("leaves an organization's policy to its owner and a store's own to that store's owner too", () => {
    const owner: Role = { kind: 'organization-owner' };
    const storeOwner: Role = { kind: 'store-owner', storeIds: ['s1'] };
    const viewer: Role = { kind: 'viewer' };
    expect([owner, storeOwner, viewer].map((role) => allows(role, policyRequirement(null)))).toEqual([true, false, false]);
    expect([owner, storeOwner, viewer].map((role) => allows(role, policyRequirement('s1')))).toEqual([true, true, false]);
    expect(allows(storeOwner, policyRequirement('s2'))).toBe(false);
  });

  it("sends a rule as ruleCreate's input, a blank label left to the command's default, and its changes", () => {
    expect(ruleCreation({ store_id: 's1', type: 'block', target: 'domain', value: ' cdn.example ', label: '' })).toEqual({ store_id: 's1', type: 'block', target: 'domain', value: 'cdn.example' });
    expect(ruleCreation({ store_id: 's1', type: 'allow', target: 'url', value: 'https://a.example/x.js', label: 'Widget' }).label).toBe('Widget');
    expect(ruleChanges({ label: 'Block the CDN' })).toEqual({ label: 'Block the CDN', active: false });
    expect(ruleChanges({ label: 'x', active: 'on' }).active).toBe(true);
    expect(DEACTIVATION).toEqual({ active: false });
  });
});
