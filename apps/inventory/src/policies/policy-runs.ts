import { Inject, Injectable } from '@nestjs/common';
import { POLICIES, type PolicyApplication, type PolicyDocument, type PolicyRunItem, type PolicySimulation, type ScriptDocument } from '@pss/contracts';
import { notFound, validationError } from '@pss/kernel';
import type { CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { StoreAccess } from '../stores/store-access';
import { PolicyDecisions, type PolicyOutcome } from './policy-decisions';

export interface PolicyRunRequest {
  orgId: string;
  actor: string;
  policyId: string;
  storeId?: string;
  /** The command's deadline (ISO 8601): Apply's waits for the read models end before it. */
  deadline?: string;
}

const item = ({ _id, src, type, category, status }: ScriptDocument): PolicyRunItem => ({ id: _id, src, type, category, status });

/**
 * Simulate and Apply: one policy over a store's current scripts. Simulate runs exactly the decisions Apply
 * would take, and writes none of them.
 */
@Injectable()
export class PolicyRuns {
  constructor(
    private readonly decisions: PolicyDecisions,
    private readonly stores: StoreAccess,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async simulate(request: PolicyRunRequest): Promise<PolicySimulation> {
    const { policy, storeId, outcomes } = await this.run(request, false);
    const having = (outcome: PolicyOutcome) => outcomes.filter((o) => o.outcome === outcome).map((o) => item(o.script));
    return {
      policy_id: policy._id,
      store_id: storeId,
      would_authorize: having('authorized'),
      would_block: having('blocked'),
      would_review: having('needs_review'),
      unchanged: outcomes.filter((o) => o.outcome === 'unchanged').length,
    };
  }

  async apply(request: PolicyRunRequest): Promise<PolicyApplication> {
    const { policy, storeId, outcomes } = await this.run(request, true);
    const count = (outcome: PolicyOutcome) => outcomes.filter((o) => o.outcome === outcome).length;
    return {
      policy_id: policy._id,
      store_id: storeId,
      authorized: count('authorized'),
      blocked: count('blocked'),
      needs_review: count('needs_review'),
      unchanged: count('unchanged'),
    };
  }

  private async run(request: PolicyRunRequest, write: boolean) {
    const policy = await this.readStore.collection<PolicyDocument>(POLICIES).findOne({ _id: request.policyId, org_id: request.orgId });
    if (!policy) throw notFound('Policy');
    const storeId = storeOf(policy, request.storeId);
    await this.stores.ownedBy(request.orgId, storeId);
    const context: CommandContext = { actor: request.actor, orgId: request.orgId, deadline: request.deadline };
    return { policy, storeId, outcomes: await this.decisions.run(policy, storeId, context, write) };
  }
}

/** A store policy runs on its store; an organization policy needs to be told which store. */
function storeOf(policy: PolicyDocument, requested: string | undefined): string {
  if (policy.store_id) {
    if (requested && requested !== policy.store_id) {
      throw validationError([{ field: 'store_id', message: "store_id must be the policy's own store" }]);
    }
    return policy.store_id;
  }
  if (!requested) throw validationError([{ field: 'store_id', message: 'store_id is required for an organization-level policy' }]);
  return requested;
}
