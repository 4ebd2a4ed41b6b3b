import { RULES, toResource, type RuleDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import type { AggregateRepository } from '@pss/platform';
import { ruleStream } from './rule.events';
import type { RuleProjection } from './rule.projection';

/** The spec's Rule, plus `org_id` and `updated_at`. */
export type RuleResource = ReturnType<typeof toResource<RuleDocument>>;

/** The rule as the API shows it, as the command's write left it (whether or not the read model has it yet). */
export async function ruleResource(aggregates: AggregateRepository, projection: RuleProjection, ruleId: string): Promise<RuleResource> {
  const doc = await aggregates.written<RuleDocument>(ruleStream(ruleId), projection, RULES, ruleId);
  if (!doc) throw notFound('Rule');
  return toResource(doc);
}
