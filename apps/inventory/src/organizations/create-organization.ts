import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ORGANIZATIONS, toResource, type CreatedOrganization, type OrganizationDocument } from '@pss/contracts';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { organizationDecider, organizationStream } from './organization.decider';
import { OrganizationProjection } from './organization.projection';
import { OwnerInvitations } from './owner-invitations';

export interface CreateOrganizationInput {
  name: string;
  plan?: string;
  billingMode?: string;
  ownerEmail?: string | null;
  parentOrgId?: string | null;
}

export class CreateOrganization {
  constructor(
    readonly input: CreateOrganizationInput,
    readonly context: CommandContext,
  ) {}
}

/**
 * Creates the organization, invites its owner and records how the invitation went. Answered from the decided
 * state, once the read models have it or the command's budget for that wait ran out (read-your-writes).
 */
@CommandHandler(CreateOrganization)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganization, CreatedOrganization> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly invitations: OwnerInvitations,
    private readonly organizations: OrganizationProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: CreateOrganization): Promise<CreatedOrganization> {
    const parent = input.parentOrgId ? await this.loadParent(input.parentOrgId) : null;
    const existingUser = await this.invitations.isExistingUser(input.ownerEmail);
    const at = this.clock.now();
    // A redelivery, or the client's retry of a create that timed out, answers the organization it created; one
    // whose first delivery died midway (abandoned) finishes it, with the id that delivery chose.
    const claim = context.commandId ? await this.aggregates.claimCommand(context.commandId, uuidv7(at.getTime()), context) : undefined;
    if (claim?.earlier && !claim.abandoned) return this.createdEarlier(claim.owner, context);
    const orgId = claim?.owner ?? uuidv7(at.getTime());
    const stream = organizationStream(orgId);
    let { state } = await this.aggregates.load(stream, organizationDecider);
    if (!state.profile) {
      ({ state } = await this.aggregates.decide(
        stream,
        organizationDecider,
        {
          type: 'CreateOrganization',
          orgId,
          name: input.name,
          plan: input.plan ?? 'growth',
          billingMode: input.billingMode ?? 'partner',
          ownerEmail: input.ownerEmail ?? null,
          parent,
          at,
        },
        { ...context, orgId },
      ).catch(async (error: unknown) => {
        // Refused: the claim goes back, so the command decides again if it comes again.
        if (context.commandId) await this.aggregates.releaseCommand(context.commandId, orgId, context);
        throw error;
      }));
    }
    // A create that died after sending the invitation and before recording it sends it again: at least once.
    const outcome = state.ownerInvitation ?? (await this.invitations.invite(state.profile!, existingUser, { ...context, orgId }));
    if (!state.ownerInvitation) {
      await this.aggregates.decide(stream, organizationDecider, { type: 'RecordOwnerInvitation', outcome, at: this.clock.now() }, { ...context, orgId });
    }
    return { ...(await this.resource(orgId)), owner_invite: outcome };
  }

  private async createdEarlier(orgId: string, context: CommandContext): Promise<CreatedOrganization> {
    // Answered once the invitation is recorded, as the first delivery answers.
    const state = await this.aggregates.createdEarlier(organizationStream(orgId), organizationDecider, (org) => org.ownerInvitation !== undefined, context);
    return { ...(await this.resource(orgId)), owner_invite: state.ownerInvitation! };
  }

  /** The organization as the command's writes left it, whether or not the read model has it yet. */
  private async resource(orgId: string) {
    const created = await this.aggregates.written<OrganizationDocument>(organizationStream(orgId), this.organizations, ORGANIZATIONS, orgId);
    return toResource(created!);
  }

  private async loadParent(parentOrgId: string): Promise<{ orgId: string; parentOrgId: string | null }> {
    const { state } = await this.aggregates.load(organizationStream(parentOrgId), organizationDecider);
    if (!state.profile) throw notFound('Organization');
    return { orgId: parentOrgId, parentOrgId: state.profile.parentOrgId };
  }
}
