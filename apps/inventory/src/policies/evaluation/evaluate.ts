import type { PolicyAction, PolicyConditions, PolicyDocument, PolicyMatch } from '@pss/contracts';
import { matchesGlob } from './glob';
import type { ScriptFacts } from './script-facts';

/**
 * Policy evaluation, pure. A policy applies to a script when every key of its `match` holds (inside an array,
 * any value may match) and every key of its `conditions` holds; an empty match matches every script. Among
 * active policies, lowest priority first (a store's own before its organization's on a tie), the first that
 * applies decides. docs/policies.md explains each key with examples.
 */
export function policyApplies(policy: Pick<PolicyDocument, 'match' | 'conditions'>, facts: ScriptFacts): boolean {
  return matches(policy.match, facts) && conditionsHold(policy.conditions, facts);
}

export function matches(match: PolicyMatch, facts: ScriptFacts): boolean {
  if (match.origin !== undefined && !originMatches(match.origin, facts)) return false;
  if (match.domain !== undefined && !(facts.host !== null && match.domain.some((domain) => hostMatches(facts.host!, domain)))) return false;
  if (match.path_glob !== undefined && !(facts.path !== null && match.path_glob.some((glob) => matchesGlob(facts.path!, glob)))) return false;
  if (match.category !== undefined && !(facts.category !== null && match.category.includes(facts.category))) return false;
  if (match.vendor_id !== undefined && !(facts.vendorId !== null && match.vendor_id.includes(facts.vendorId))) return false;
  return true;
}

function originMatches(origin: string, facts: ScriptFacts): boolean {
  switch (origin) {
    case 'any':
      return true;
    case 'inline':
      return facts.inline;
    case 'first_party':
      return !facts.inline && facts.type === 'first_party';
    case 'third_party':
      return !facts.inline && facts.type !== 'first_party';
    default:
      return false;
  }
}

/** `example.com` matches the host and its subdomains; `*.example.com` only its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  const wildcard = domain.startsWith('*.');
  const base = (wildcard ? domain.slice(2) : domain).toLowerCase();
  return host.endsWith(`.${base}`) || (!wildcard && host === base);
}

/** Every present condition must hold; a boolean condition holds when the fact equals its value. */
export function conditionsHold(conditions: PolicyConditions, facts: ScriptFacts): boolean {
  const checks: [keyof PolicyConditions, (value: never) => boolean][] = [
    ['same_origin', (value: boolean) => facts.sameOrigin === value],
    ['prevalence_min', (value: number) => facts.prevalence !== null && facts.prevalence >= value],
    ['no_sensitive_field_access', (value: boolean) => !facts.sensitiveFieldAccess === value],
    ['not_in_threat_list', (value: boolean) => !facts.threat === value],
    ['in_threat_list', (value: boolean) => facts.threat === value],
    ['store_provider', (value: boolean) => facts.storeProvider === value],
    // An unknown size cannot be shown to be small enough.
    ['max_size_kb', (value: number) => facts.sizeBytes !== null && facts.sizeBytes / 1024 <= value],
    ['has_integrity_attr', (value: boolean) => (facts.integrityAttr ?? false) === value],
  ];
  return checks.every(([key, check]) => conditions[key] === undefined || check(conditions[key] as never));
}

export interface PolicyVerdict {
  policy: PolicyDocument;
  action: PolicyAction;
}

/** The deciding policy among `policies` (any order; inactive ones are skipped), or undefined. */
export function decidingPolicy(policies: PolicyDocument[], facts: ScriptFacts): PolicyVerdict | undefined {
  const policy = [...policies].filter((p) => p.active).sort(evaluationOrder).find((p) => policyApplies(p, facts));
  return policy && { policy, action: policy.action };
}

/** Lowest priority first; on a tie the store's own policy first, then the oldest. */
export function evaluationOrder(a: PolicyDocument, b: PolicyDocument): number {
  return a.priority - b.priority || Number(b.store_id !== null) - Number(a.store_id !== null) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

/** Fills `{domain}`, `{vendor}` and `{path}` of a justification template. */
export function justificationFrom(template: string | null, policyName: string, facts: ScriptFacts): string {
  if (template === null) return `Decided by policy "${policyName}"`;
  return template
    .replace(/\{domain\}/g, facts.host ?? facts.storeDomain)
    .replace(/\{vendor\}/g, facts.vendorName ?? facts.vendorId ?? 'unknown vendor')
    .replace(/\{path\}/g, facts.path ?? 'inline script');
}
