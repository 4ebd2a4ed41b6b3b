import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { COMMANDS, POLICIES, type PolicyDocument } from '@pss/contracts';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { paginate } from '../pagination/paginate';
import { checkStoreFilter } from '../stores/own-store';
import { CreatePolicyBody, ListPoliciesQuery, PolicyRunBody, UpdatePolicyBody } from './policy.dto';

@Controller(`${API_PREFIX}/policies`)
export class PoliciesController extends ApiController {
  /** In evaluation order: lowest priority first. With store_id: the organization's policies and the store's own. */
  @Get()
  @RequiresScope('policies:read')
  async list(@Query() query: ListPoliciesQuery, @CurrentPrincipal() principal: Principal) {
    await checkStoreFilter(this.readStore, principal.actingOrgId, query.store_id);
    const filter = {
      org_id: principal.actingOrgId,
      ...(query.store_id ? { $or: [{ store_id: null }, { store_id: query.store_id }] } : {}),
      ...(query.active ? { active: query.active === 'true' } : {}),
    };
    return paginate(this.readStore.collection<PolicyDocument>(POLICIES), filter, { field: 'priority', direction: 1 }, query);
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('policies:write')
  create(@Body() body: CreatePolicyBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.policyCreate, principal, undefined, withoutOrgId(body));
  }

  @Patch(':id')
  @RequiresScope('policies:write')
  update(@Param('id', UuidPipe) id: string, @Body() body: UpdatePolicyBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.policyUpdate, principal, id, withoutOrgId(body));
  }

  @Delete(':id')
  @RequiresScope('policies:write')
  delete(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.policyDelete, principal, id, {});
  }

  /** Changes nothing: what Apply would do to the store's current scripts. */
  @Post(':id/simulate')
  @HttpCode(200)
  @RequiresScope('policies:read')
  simulate(@Param('id', UuidPipe) id: string, @Body() body: PolicyRunBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.policySimulate, principal, id, withoutOrgId(body));
  }

  /** Decides the store's current scripts with this policy's action, whatever its mode. */
  @Post(':id/apply')
  @HttpCode(200)
  @RequiresScope('policies:write')
  apply(@Param('id', UuidPipe) id: string, @Body() body: PolicyRunBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.policyApply, principal, id, withoutOrgId(body));
  }
}
