import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { COMMANDS, RULES, type RuleDocument } from '@pss/contracts';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { paginate } from '../pagination/paginate';
import { checkStoreFilter } from '../stores/own-store';
import { CreateRuleBody, DeleteRuleQuery, ListRulesQuery, UpdateRuleBody } from './rule.dto';

/** Block and allow rules. Reading them is part of reviewing scripts (scripts:read), as the spec's scope table says. */
@Controller(`${API_PREFIX}/rules`)
export class RulesController extends ApiController {
  /** Newest first. */
  @Get()
  @RequiresScope('scripts:read')
  async list(@Query() query: ListRulesQuery, @CurrentPrincipal() principal: Principal) {
    const orgId = principal.actingOrgId;
    await checkStoreFilter(this.readStore, orgId, query.store_id);
    const filter = {
      org_id: orgId,
      ...(query.store_id ? { store_id: query.store_id } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.active !== undefined ? { active: query.active } : {}),
    };
    return paginate(this.readStore.collection<RuleDocument>(RULES), filter, { field: 'created_at', direction: -1 }, query);
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('rules:write')
  create(@Body() body: CreateRuleBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.ruleCreate, principal, undefined, withoutOrgId(body));
  }

  @Patch(':id')
  @RequiresScope('rules:write')
  update(@Param('id', UuidPipe) id: string, @Body() body: UpdateRuleBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.ruleUpdate, principal, id, { label: body.label, active: body.active });
  }

  @Delete(':id')
  @RequiresScope('rules:write')
  delete(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.ruleDelete, principal, id, {});
  }

  @Delete()
  @RequiresScope('rules:write')
  deleteByQuery(@Query() query: DeleteRuleQuery, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.ruleDelete, principal, query.id, {});
  }
}
