import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { pageRules, refusalDetail, RULES, SCRIPT_DECISION_REFUSALS, SCRIPTS, toResource, type BlockBy, type BlockReach, type RuleDocument, type ScriptDecisionEnvelope, type ScriptDocument } from '@pss/contracts';
import { addDays, CLOCK, DomainError, notFound, validationError, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import type { RuleResource } from '../rules/rule-resource';
import { ScriptRules } from '../rules/script-rules';
import { blockReach, type CoveredScript } from './block-reach';
import { ruledScript } from './ruled-script';
import { checkDecisionMethod, scriptDecider } from './script.decider';
import { scriptStream, type ScriptDecision } from './script.events';

export interface AuthorizeInput {
  justification: string;
  expires_at?: string;
  expires_days?: number;
}

export interface BlockInput {
  justification?: string;
  by?: BlockBy;
}

export type ScriptDecisionRequest = { kind: 'authorize'; input: AuthorizeInput } | { kind: 'block'; input: BlockInput };

/** The scripts a domain rule's answer looks at, the most recently seen first: enough to fill its two lists. */
const MOST_COVERED = 1000;

export class DecideOnScript {
  constructor(readonly envelope: ScriptDecisionEnvelope<ScriptDecisionRequest> & CommandMetaCarrier) {}
}

/**
 * A person's decision on a script, through the API (`authorization_method` `api`, `authorized_by`
 * `api:<token prefix>`) or the dashboard (`manual`, as its sender states): authorize pins the current hash, and lets a blocked script run again; block also
 * creates or updates the block rule the SDK enforces (inline scripts by content hash, external ones by domain or,
 * asked `by: url`, by URL) and answers which other scripts of the store that rule stops or spares. Rules change
 * before the script's decision, so a refused rule (a suspended store) leaves the script as it was.
 */
@CommandHandler(DecideOnScript)
export class DecideOnScriptHandler implements ICommandHandler<DecideOnScript> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly rules: ScriptRules,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope: { orgId, id, input, method = 'api', command } }: DecideOnScript) {
    const actor = commandActor(command);
    const stream = scriptStream(id!);
    const { state } = await this.aggregates.load(stream, scriptDecider);
    if (!state.scriptId || state.orgId !== orgId) throw notFound('Script');
    const at = this.clock.now();
    const context = { actor, orgId, deadline: command?.deadline };
    const decision: ScriptDecision = { method, by: actor, justification: input.input.justification?.trim() || null, policyId: null, policyVersion: null, prevalenceSeen: null };
    // Before any rule changes: the decider refuses it too, but after a block rule was already written.
    checkDecisionMethod(decision);

    if (input.kind === 'authorize') {
      // The DTO refuses an empty one; blanks would otherwise authorize with no justification at all.
      if (!decision.justification) throw validationError([refusalDetail(SCRIPT_DECISION_REFUSALS, 'justification', 'justification_required')]);
      const expiresAt = expiry(input.input, at);
      if (state.status === 'blocked') await this.rules.unblock(ruledScript(state, orgId), context);
      await this.aggregates.decide(stream, scriptDecider, { type: 'AuthorizeScript', decision, expiresAt, at }, context);
      return this.resource(id!);
    }
    const { by } = input.input;
    if (state.inline && by !== undefined) throw validationError([{ field: 'by', message: 'an inline script is blocked by its content hash: leave by out' }]);
    const rule = await this.rules.block(ruledScript(state, orgId), context, by);
    await this.aggregates.decide(stream, scriptDecider, { type: 'BlockScript', decision, ruleId: rule.id, at }, context);
    return { ...(await this.resource(id!)), rule, ...(await this.reach(rule, id!)) };
  }

  /** A domain rule's reach over the store's other scripts; a URL or hash rule covers this script alone. */
  private async reach(rule: RuleResource, scriptId: string): Promise<BlockReach> {
    if (rule.target !== 'domain') return { also_blocks: [], spared: [] };
    const scope = { org_id: rule.org_id, store_id: rule.store_id };
    const [covered, rules] = await Promise.all([
      this.readStore.collection<ScriptDocument>(SCRIPTS).findFrozen(
        { ...scope, _id: { $ne: scriptId }, inline: false, host: { $regex: `^(.+\\.)?${escapeRegex(rule.value)}$` } },
        { sort: { last_seen_at: -1, _id: 1 }, limit: MOST_COVERED },
      ),
      this.readStore.collection<RuleDocument>(RULES).findFrozen({ ...scope, active: true }),
    ]);
    // The rule as written: the read model may not show it yet.
    const after = [...rules.filter((other) => other._id !== rule.id), { ...rule, _id: rule.id }];
    return blockReach(covered as ReadonlyArray<CoveredScript>, pageRules(after));
  }

  private async resource(scriptId: string) {
    const doc = await this.readStore.collection<ScriptDocument>(SCRIPTS).findOne({ _id: scriptId });
    return toResource(doc!);
  }
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `expires_days` goes up to this (the API's DTO), and `expires_at` as far. */
const MAX_AUTHORIZATION_DAYS = 3650;

function expiry(input: AuthorizeInput, at: Date): Date | null {
  if (input.expires_at !== undefined && input.expires_days !== undefined) {
    throw new DomainError('validation_error', 'Give expires_at or expires_days, not both', [{ field: 'expires_at', message: 'give expires_at or expires_days, not both' }]);
  }
  if (input.expires_at !== undefined) {
    const expiresAt = new Date(input.expires_at);
    // The same bounds as expires_days: an authorization in the past, or for longer than ten years, is a mistake.
    if (expiresAt.getTime() <= at.getTime() || expiresAt.getTime() > addDays(at, MAX_AUTHORIZATION_DAYS).getTime()) {
      throw validationError([{ field: 'expires_at', message: `expires_at must be in the future, at most ${MAX_AUTHORIZATION_DAYS} days ahead` }]);
    }
    return expiresAt;
  }
  if (input.expires_days !== undefined) return addDays(at, input.expires_days);
  return null;
}
