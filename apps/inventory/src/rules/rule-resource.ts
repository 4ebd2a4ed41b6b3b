import { RULES, toResource, type RuleDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { ReadStore } from '@pss/read-store';

/** The spec's Rule, plus `org_id` and `updated_at`. */
export type RuleResource = ReturnType<typeof toResource<RuleDocument>>;

/** The rule as the API shows it, from the read model the write just reached. */
export async function ruleResource(readStore: ReadStore, ruleId: string): Promise<RuleResource> {
  const doc = await readStore.collection<RuleDocument>(RULES).findOne({ _id: ruleId });
  if (!doc) throw notFound('Rule');
  return toResource(doc);
}
