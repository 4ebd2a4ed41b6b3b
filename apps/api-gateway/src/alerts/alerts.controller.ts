import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ALERTS, COMMANDS, toResource, type AlertDocument, type AlertResource, type UpdateAlertRequest } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { paginate } from '../pagination/paginate';
import { checkStoreFilter } from '../stores/own-store';
import { ListAlertsQuery, UpdateAlertBody } from './alert.dto';

@Controller(`${API_PREFIX}/alerts`)
export class AlertsController extends ApiController {
  /** Newest first; filters by store, status, severity and type. */
  @Get()
  @RequiresScope('alerts:read')
  async list(@Query() query: ListAlertsQuery, @CurrentPrincipal() principal: Principal) {
    const { limit, cursor, org_id: _org, ...filters } = query;
    await checkStoreFilter(this.readStore, principal.actingOrgId, query.store_id);
    return paginate(this.alerts, { org_id: principal.actingOrgId, ...filters }, { field: 'created_at', direction: -1 }, { limit, cursor });
  }

  @Get(':id')
  @RequiresScope('alerts:read')
  async get(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    const alert = await this.alerts.findOne({ _id: id, org_id: principal.actingOrgId });
    if (!alert) throw notFound('Alert');
    return toResource(alert);
  }

  /** Resolve or reopen, with a note; no webhook event results (the spec). */
  @Patch(':id')
  @RequiresScope('alerts:write')
  update(@Param('id', UuidPipe) id: string, @Body() body: UpdateAlertBody, @CurrentPrincipal() principal: Principal) {
    const request: UpdateAlertRequest = { orgId: principal.actingOrgId, alertId: id, input: withoutOrgId(body) };
    return this.bus.request<AlertResource>(COMMANDS.alertUpdate, request, { actor: principal.actor });
  }

  private get alerts() {
    return this.readStore.collection<AlertDocument>(ALERTS);
  }
}
