import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ORGANIZATIONS, toResource, type OrganizationDocument } from '@pss/contracts';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { organizationDecider, organizationStream } from './organization.decider';

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

export type OrganizationResource = ReturnType<typeof toResource<OrganizationDocument>>;

@CommandHandler(CreateOrganization)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganization, OrganizationResource> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: CreateOrganization): Promise<OrganizationResource> {
    const parent = input.parentOrgId ? await this.loadParent(input.parentOrgId) : null;
    const at = this.clock.now();
    const orgId = uuidv7(at.getTime());
    await this.aggregates.decide(
      organizationStream(orgId),
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
    );
    const created = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).findOne({ _id: orgId });
    return toResource(created!);
  }

  private async loadParent(parentOrgId: string): Promise<{ orgId: string; parentOrgId: string | null }> {
    const { state } = await this.aggregates.load(organizationStream(parentOrgId), organizationDecider);
    if (!state.profile) throw notFound('Organization');
    return { orgId: parentOrgId, parentOrgId: state.profile.parentOrgId };
  }
}
