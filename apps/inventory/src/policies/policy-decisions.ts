import { Inject, Injectable } from '@nestjs/common';
import { POLICIES, SCRIPTS, STORES, type PolicyDocument, type ScriptDocument, type StoreDocument } from '@pss/contracts';
import { addDays, CLOCK, notFound, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ScriptRules } from '../rules/script-rules';
import { ruledScript } from '../scripts/ruled-script';
import { scriptDecider, type ScriptCommand } from '../scripts/script.decider';
import { scriptStream, type ScriptDecision } from '../scripts/script.events';
import { decidingPolicy, justificationFrom, policyApplies } from './evaluation/evaluate';
import type { ScriptFacts } from './evaluation/script-facts';
import { ScriptFactsReader, scriptTraitsOf } from './script-facts-reader';

export type PolicyOutcome = 'authorized' | 'blocked' | 'needs_review' | 'unchanged';
const OUTCOME: Record<PolicyDocument['action'], Exclude<PolicyOutcome, 'unchanged'>> = {
  authorize: 'authorized',
  block: 'blocked',
  needs_review: 'needs_review',
};

const SYSTEM: CommandContext = { actor: 'system' };

/**
 * Policies deciding on scripts. Outside Apply, an `auto` policy decides by itself when a script is detected or
 * its hash changes, and a `recommend` policy only records its recommendation on the script. Apply decides with
 * the policy's action whatever its mode. A decision taken by hand is never overturned (the script decider
 * refuses it), and simulate runs the very same decisions without writing them.
 */
@Injectable()
export class PolicyDecisions {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly rules: ScriptRules,
    private readonly facts: ScriptFactsReader,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * After a detection or a hash change: the deciding policy of the store decides, or recommends. The script is
   * read from its own stream, not its read model, which may not have it yet under a burst of new scripts (review
   * D4). Resolves false only when the script has no stream: nothing was looked at, so nothing counts as decided.
   */
  async decideAutomatically(scriptId: string): Promise<boolean> {
    const { state } = await this.aggregates.load(scriptStream(scriptId), scriptDecider);
    const script = scriptTraitsOf(state);
    if (!script || state.storeId === undefined) return false;
    const store = await this.store(state.storeId);
    const policies = await this.policiesOf(store);
    const facts = await this.facts.of(script, store, await this.facts.electorate(policies, store));
    const verdict = decidingPolicy(policies, facts);
    if (!verdict) return true;
    // Behind the SDK's 202 nobody reads the decision back: the next fact need not wait for the read models.
    const context: CommandContext = { ...SYSTEM, orgId: store.org_id, readYourWrites: false };
    if (verdict.policy.mode === 'auto') {
      await this.decide(verdict.policy, scriptId, facts, context, true);
      return true;
    }
    await this.aggregates.decide(scriptStream(scriptId), scriptDecider, {
      type: 'Recommend',
      recommendation: {
        policy_id: verdict.policy._id,
        policy_version: verdict.policy.version,
        action: verdict.action,
        justification: justificationFrom(verdict.policy.justification_template, verdict.policy.name, facts),
        prevalence_seen: prevalenceSeen(verdict.policy, facts),
        at: this.clock.now().toISOString(),
      },
    }, context);
    return true;
  }

  /** Decides the store's current scripts with this one policy (Apply), or only says what it would do. */
  async run(policy: PolicyDocument, storeId: string, context: CommandContext, write: boolean) {
    const store = await this.store(storeId);
    const scripts = await this.readStore.collection<ScriptDocument>(SCRIPTS).find({ store_id: store._id }, { sort: { first_seen_at: -1, _id: -1 } });
    const electorate = await this.facts.electorate([policy], store);
    const outcomes: { script: ScriptDocument; outcome: PolicyOutcome }[] = [];
    for (const script of scripts) {
      const facts = await this.facts.of(script, store, electorate);
      const outcome = policyApplies(policy, facts) ? await this.decide(policy, script._id, facts, context, write) : 'unchanged';
      outcomes.push({ script, outcome });
    }
    return outcomes;
  }

  async policiesOf(store: StoreDocument): Promise<PolicyDocument[]> {
    return this.readStore.collection<PolicyDocument>(POLICIES).find({
      org_id: store.org_id,
      active: true,
      $or: [{ store_id: null }, { store_id: store._id }],
    });
  }

  async store(storeId: string): Promise<StoreDocument> {
    const store = await this.readStore.collection<StoreDocument>(STORES).findOne({ _id: storeId });
    if (!store) throw notFound('Store');
    return store;
  }

  /** One script, one policy: the script decider says whether anything changes. */
  private async decide(policy: PolicyDocument, scriptId: string, facts: ScriptFacts, context: CommandContext, write: boolean): Promise<PolicyOutcome> {
    const stream = scriptStream(scriptId);
    // A review request needs no state first; a block makes its rule before the decision, an authorization lifts
    // a block the script has.
    if (write && policy.action === 'needs_review') {
      const { events } = await this.aggregates.decide(stream, scriptDecider, this.command(policy, facts, ''), context);
      return events.length ? OUTCOME[policy.action] : 'unchanged';
    }
    const { state } = await this.aggregates.load(stream, scriptDecider);
    const command = this.command(policy, facts, '');
    if (scriptDecider.decide(command, state).length === 0) return 'unchanged';
    if (!write) return OUTCOME[policy.action];
    const script = ruledScript(state, context.orgId ?? policy.org_id);
    if (policy.action === 'authorize' && state.status === 'blocked') await this.rules.unblock(script, context);
    const ruleId = policy.action === 'block' ? (await this.rules.block(script, context)).id : '';
    const { events } = await this.aggregates.decide(stream, scriptDecider, this.command(policy, facts, ruleId), context);
    return events.length ? OUTCOME[policy.action] : 'unchanged';
  }

  private command(policy: PolicyDocument, facts: ScriptFacts, ruleId: string): ScriptCommand {
    const at = this.clock.now();
    const decision: ScriptDecision = {
      method: 'policy',
      by: `policy:${policy._id}`,
      justification: justificationFrom(policy.justification_template, policy.name, facts),
      policyId: policy._id,
      policyVersion: policy.version,
      prevalenceSeen: prevalenceSeen(policy, facts),
    };
    switch (policy.action) {
      case 'authorize':
        return { type: 'AuthorizeScript', decision, expiresAt: policy.expires_days ? addDays(at, policy.expires_days) : null, at };
      case 'block':
        return { type: 'BlockScript', decision, ruleId, at };
      case 'needs_review':
        return { type: 'RequestReview', decision, at };
    }
  }
}

/** The prevalence a policy's `prevalence_min` was checked against; null for a policy without that condition. */
const prevalenceSeen = (policy: PolicyDocument, facts: ScriptFacts): number | null =>
  policy.conditions.prevalence_min === undefined ? null : facts.prevalence;
