import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ORGANIZATIONS, toResource, type CreatedOrganization, type OrganizationDocument } from '@pss/contracts';
import { listTokens } from '@pss/dashboard-reads';
import { CLOCK, isUuid, validationError, type Clock } from '@pss/kernel';
import { OpsCommand, type OpsArgs } from '@pss/ops';
import type { CommandContext } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { CreateOrganization } from '../organizations/create-organization';
import { OwnerInvitations } from '../organizations/owner-invitations';
import { IssueToken } from '../tokens/issue-token';
import { RevokeToken } from '../tokens/revoke-token';

const ADMIN: CommandContext = { actor: 'admin-cli' };

/**
 * What the dashboard would do, for operators: the spec lets no API endpoint create, list or revoke tokens.
 * Served on the control socket of the process that runs inventory (`npm run -s admin -- …`).
 */
@Injectable()
export class AdminOps {
  constructor(
    private readonly commands: CommandBus,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly invitations: OwnerInvitations,
  ) {}

  /**
   * Also prints a dashboard invitation link when the organization has an owner to invite: a fresh one, which
   * replaces the link just mailed (an operator hands this one over; embedded installs often send no mail).
   */
  @OpsCommand('org.create')
  async createOrganization(args: OpsArgs) {
    const created: CreatedOrganization = await this.commands.execute(
      new CreateOrganization(
        {
          name: required(args, 'name'),
          plan: optional(args, 'plan'),
          billingMode: optional(args, 'billing-mode'),
          ownerEmail: optional(args, 'owner-email') ?? null,
          parentOrgId: organizationId(args, 'parent') ?? null,
        },
        ADMIN,
      ),
    );
    if (!created.owner_email) return created;
    return { ...created, ...(await this.invitations.issue(created.id, ADMIN)) };
  }

  /** `admin org invite --org ID`: a fresh invitation link for the owner, for operators and an embedded install's first user. */
  @OpsCommand('org.invite')
  inviteOwner(args: OpsArgs) {
    const orgId = organizationId(args, 'org');
    if (!orgId) throw validationError([{ field: 'org', message: '--org is required' }]);
    return this.invitations.issue(orgId, ADMIN);
  }

  /** Every organization, oldest first, or the children of `--parent`: operators find the id a token is for. */
  @OpsCommand('org.list')
  async listOrganizations(args: OpsArgs) {
    const parent = organizationId(args, 'parent');
    const organizations = await this.readStore
      .collection<OrganizationDocument>(ORGANIZATIONS)
      .find(parent ? { parent_org_id: parent } : {}, { sort: { created_at: 1, _id: 1 } });
    return { data: organizations.map((organization) => toResource(organization)) };
  }

  @OpsCommand('token.create')
  createToken(args: OpsArgs) {
    const days = optional(args, 'expires-days');
    return this.commands.execute(
      new IssueToken(
        {
          orgId: requiredOrganizationId(args, 'org'),
          name: required(args, 'name'),
          scopes: required(args, 'scopes').split(',').map((scope) => scope.trim()).filter(Boolean),
          validityDays: days === undefined || days === 'none' ? null : Number(days),
        },
        ADMIN,
      ),
    );
  }

  @OpsCommand('token.list')
  async listTokens(args: OpsArgs) {
    return { data: await listTokens(this.readStore, requiredOrganizationId(args, 'org'), this.clock.now()) };
  }

  @OpsCommand('token.revoke')
  revokeToken(args: OpsArgs) {
    return this.commands.execute(new RevokeToken({ orgId: requiredOrganizationId(args, 'org'), prefix: required(args, 'prefix') }, ADMIN));
  }
}

function optional(args: OpsArgs, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * An organization named as the API reads a path id or `org_id`: a UUID in any case, compared in lower case. So a
 * child's id in capitals is the child (a grandchild is `nesting_limit`, as the API says), not `not_found`, and a
 * bare `--parent` is refused instead of making a top-level organization.
 */
function organizationId(args: OpsArgs, name: string): string | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  const id = typeof value === 'string' ? value.trim() : value;
  if (!isUuid(id)) throw validationError([{ field: name, message: `--${name} must be an organization id (a UUID)` }]);
  return id.toLowerCase();
}

function requiredOrganizationId(args: OpsArgs, name: string): string {
  return organizationId(args, name) ?? required(args, name);
}

function required(args: OpsArgs, name: string): string {
  const value = optional(args, name);
  if (!value) throw validationError([{ field: name, message: `--${name} is required` }]);
  return value;
}
