import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertStoreWritable, POLICIES, toResource, type InventoryCommandEnvelope, type PolicyDocument, type PolicyInput } from '@pss/contracts';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { StoreAccess } from '../stores/store-access';
import { policyDecider, policyStream, type PolicyCommand, type PolicyDefinition } from './policy.decider';
import { PolicyProjection } from './policy.projection';

export type PolicyChange = { kind: 'create'; input: PolicyInput } | { kind: 'update'; input: PolicyInput } | { kind: 'delete' };

export class ChangePolicy {
  constructor(readonly envelope: InventoryCommandEnvelope<PolicyChange> & CommandMetaCarrier) {}
}

/** Defaults of a policy created through the API: it recommends, until someone makes it `auto`. */
const NEW_POLICY: PolicyDefinition = {
  name: '',
  description: null,
  active: true,
  mode: 'recommend',
  priority: 100,
  match: {},
  conditions: {},
  action: 'needs_review',
  justificationTemplate: null,
  expiresDays: null,
};

@CommandHandler(ChangePolicy)
export class ChangePolicyHandler implements ICommandHandler<ChangePolicy> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly stores: StoreAccess,
    private readonly policies: PolicyProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope: { orgId, id, input, command: meta } }: ChangePolicy) {
    const at = this.clock.now();
    const context: CommandContext = { actor: commandActor(meta), orgId, deadline: meta?.deadline };
    if (input.kind === 'create') {
      const storeId = input.input.store_id ?? null;
      if (storeId) assertStoreWritable(await this.stores.ownedBy(orgId, storeId));
      const policyId = uuidv7(at.getTime());
      // A redelivery, or the client's retry of a create that timed out, answers the policy it created.
      const claim = meta ? await this.aggregates.claimCommand(meta.id, policyId, context) : undefined;
      if (claim?.earlier) return this.createdEarlier(claim.owner, context);
      const command: PolicyCommand = { type: 'CreatePolicy', policyId, orgId, storeId, definition: { ...NEW_POLICY, ...definitionOf(input.input) }, isDefault: false, at };
      try {
        await this.aggregates.decide(policyStream(policyId), policyDecider, command, context);
      } catch (error) {
        // Refused: the claim goes back, so the command decides again if it comes again.
        if (meta) await this.aggregates.releaseCommand(meta.id, policyId, context);
        throw error;
      }
      return this.resource(policyId);
    }
    if (input.kind === 'delete') {
      await this.aggregates.decide(policyStream(id!), policyDecider, { type: 'DeletePolicy', orgId, at }, context);
      return { id: id!, deleted: true };
    }
    await this.assertPolicyStoreWritable(orgId, id!);
    await this.aggregates.decide(policyStream(id!), policyDecider, { type: 'UpdatePolicy', orgId, changes: definitionOf(input.input), at }, context);
    return this.resource(id!);
  }

  /** A store's policy changes only while its store does (deleting it is allowed: it only takes a policy away). */
  private async assertPolicyStoreWritable(orgId: string, policyId: string): Promise<void> {
    const { policy, deleted } = (await this.aggregates.load(policyStream(policyId), policyDecider)).state;
    if (!deleted && policy?.orgId === orgId && policy.storeId) assertStoreWritable(await this.stores.ownedBy(orgId, policy.storeId));
  }

  private async createdEarlier(policyId: string, context: CommandContext) {
    await this.aggregates.createdEarlier(policyStream(policyId), policyDecider, (state) => state.policy !== undefined, context);
    return this.resource(policyId);
  }

  /** The policy as the command's write left it, whether or not the read model has it yet. */
  private async resource(policyId: string) {
    const policy = await this.aggregates.written<PolicyDocument>(policyStream(policyId), this.policies, POLICIES, policyId);
    if (!policy) throw notFound('Policy');
    return toResource(policy);
  }
}

/** The API's snake_case fields as the decider's definition, leaving out what was not sent. */
function definitionOf(input: PolicyInput): Partial<PolicyDefinition> {
  const fields: Partial<PolicyDefinition> = {
    name: input.name,
    description: input.description,
    active: input.active,
    mode: input.mode,
    priority: input.priority,
    match: input.match,
    conditions: input.conditions,
    action: input.action,
    justificationTemplate: input.justification_template,
    expiresDays: input.expires_days,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<PolicyDefinition>;
}
