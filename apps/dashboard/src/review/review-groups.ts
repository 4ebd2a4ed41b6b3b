import type { ScriptDocument } from '@pss/contracts';

/** Scripts of one host and vendor: decided together (a vendor's three files are one decision). */
export interface ReviewGroup {
  /** Stable within a page: `<host>|<vendor>`, inline scripts under their own host ''. */
  key: string;
  host: string | null;
  vendor: string | null;
  scripts: ScriptDocument[];
}

/** The page's scripts by host and vendor, groups in the order their first script comes (newest first). */
export function reviewGroups(scripts: readonly ScriptDocument[]): ReviewGroup[] {
  const groups = new Map<string, ReviewGroup>();
  for (const script of scripts) {
    const key = `${script.host ?? ''}|${script.vendor_id ?? ''}`;
    const group = groups.get(key) ?? { key, host: script.host, vendor: script.vendor_id, scripts: [] };
    group.scripts.push(script);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The justification a group's form starts with: the first recommendation among its scripts by a policy with a
 * justification template (`templated`), which is that template as inventory filled it for the script (`{domain}`,
 * `{vendor}` by its catalogue name, `{path}`); empty when no policy offers one. A policy without a template
 * recommends with its own name, which justifies nothing.
 */
export function startingJustification(group: ReviewGroup, templated: ReadonlySet<string>): string {
  const offered = group.scripts.find((script) => script.recommendation && templated.has(script.recommendation.policy_id));
  return offered?.recommendation?.justification ?? '';
}

/** The policies that recommended on these scripts. */
export const recommendingPolicies = (scripts: readonly ScriptDocument[]): string[] => [
  ...new Set(scripts.map((script) => script.recommendation?.policy_id).filter((id): id is string => id !== undefined)),
];
