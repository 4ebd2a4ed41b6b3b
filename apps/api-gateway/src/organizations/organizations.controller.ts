import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { CommandIds } from '@pss/bus';
import {
  COMMANDS,
  ORGANIZATIONS,
  type CreatedOrganization,
  type CreateOrganizationRequest,
  type OrganizationDocument,
} from '@pss/contracts';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RefusesOrgId, RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestCommandIds } from '../idempotency/request-command-ids';
import { ListQuery } from '../pagination/list-query.dto';
import { paginate } from '../pagination/paginate';
import { CreateOrganizationBody } from './create-organization.body';
import { OrganizationUsageReader } from './organization-usage';

/**
 * Partners and their child organizations. Listing and creating always concern the token's own organization
 * (one level of nesting), so both refuse `org_id`.
 */
@Controller(`${API_PREFIX}/organizations`)
export class OrganizationsController extends ApiController {
  constructor(private readonly usageReader: OrganizationUsageReader) {
    super();
  }

  /** The token organization's children, newest first. */
  @Get()
  @RequiresScope('orgs:manage')
  @RefusesOrgId()
  list(@Query() query: ListQuery, @CurrentPrincipal() principal: Principal) {
    return paginate(
      this.readStore.collection<OrganizationDocument>(ORGANIZATIONS),
      { parent_org_id: principal.orgId },
      { field: 'created_at', direction: -1 },
      query,
    );
  }

  /** A child of the token's organization; answered once it (and its default policies) can be read. */
  @Post()
  @HttpCode(201)
  @RequiresScope('orgs:manage')
  @RefusesOrgId()
  @Idempotent()
  create(@Body() body: CreateOrganizationBody, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds): Promise<CreatedOrganization> {
    const request: CreateOrganizationRequest = {
      parentOrgId: principal.orgId,
      name: body.name,
      ownerEmail: body.owner_email,
      plan: body.plan,
      billingMode: body.billing_mode,
    };
    return this.bus.request<CreatedOrganization>(COMMANDS.organizationCreate, request, { commandIds, actor: principal.actor });
  }

  @Get(':id/usage')
  @RequiresScope('usage:read')
  usage(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.usageReader.usage(id, principal.actingOrgId);
  }
}
