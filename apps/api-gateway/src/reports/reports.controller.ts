import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { CommandIds } from '@pss/bus';
import {
  assertStoreWritable,
  COMMANDS,
  REPORT_SCHEDULES,
  reportPeriod,
  REPORT_SNAPSHOTS,
  scheduleResource,
  type DeleteReportScheduleRequest,
  type GenerateReportReply,
  type GenerateReportRequest,
  type ReportScheduleDocument,
  type ReportScheduleResource,
  type ReportSnapshotDocument,
  type SetReportScheduleRequest,
  type StoreDocument,
} from '@pss/contracts';
import { CLOCK, DomainError, notFound, type Clock } from '@pss/kernel';
import { organizationReportsRefusal } from '@pss/report-files';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { HttpDomainError } from '../http/exceptions.filter';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestCommandIds } from '../idempotency/request-command-ids';
import { paginate } from '../pagination/paginate';
import { ownStore } from '../stores/own-store';
import { DeleteScheduleQuery, ListSnapshotsQuery, ReportFormatQuery, ReportQuery, ScheduleQuery, SetScheduleBody } from './report.dto';
import { ReportResponses } from './report-responses';

/**
 * PCI reports (spec, PCI reports): snapshots made by the reports service over the bus, read back from its read
 * model and, for the data itself, from the file store. A deleted schedule is kept by the read model as a
 * tombstone (`_deleted`), so it is filtered out here.
 */
@Controller(`${API_PREFIX}/reports/pci`)
export class ReportsController extends ApiController {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly responses: ReportResponses,
  ) {
    super();
  }

  /** The newest snapshot of exactly this period, or a new on_demand one; every call makes one without dates. */
  @Get()
  @RequiresScope('reports:read')
  async report(@Query() query: ReportQuery, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    // Fastify serves HEAD with the GET route: a probe or a link checker must not make (and store) a snapshot.
    if (reply.request.method === 'HEAD') throw new HttpDomainError('method_not_allowed', 'HEAD would make a report; use GET', { Allow: 'GET' });
    if (query.regenerate && !principal.scopes.includes('reports:generate')) {
      throw new DomainError('insufficient_scope', 'regenerate=true requires the reports:read and reports:generate scopes');
    }
    const { periodStart, periodEnd } = reportPeriod(query.period_start, query.period_end, this.clock.now().getTime());
    await this.checkPlan(principal.actingOrgId);
    await this.storeOf(principal, query.store_id);
    const request: GenerateReportRequest = {
      orgId: principal.actingOrgId,
      storeId: query.store_id,
      periodStart,
      periodEnd,
      locale: query.locale ?? 'pt-BR',
      // Only a call naming neither date wants a new report each time; a period_end alone names an exact period too.
      reuse: !query.regenerate && (query.period_start !== undefined || query.period_end !== undefined),
    };
    const { snapshot, generated } = await this.bus.request<GenerateReportReply>(COMMANDS.reportGenerate, request, { timeoutMs: GENERATE_TIMEOUT_MS, actor: principal.actor });
    await this.responses.send(reply, snapshot, query, generated);
  }

  /**
   * Newest first; filters by store (404 for a store the organization does not have, as every list) and kind. A
   * store's list is its evidence chain, newest first by `sequence`: snapshots made at once are recorded on the
   * chain in another order than their created_at.
   */
  @Get('snapshots')
  @RequiresScope('reports:read')
  async snapshotsList(@Query() query: ListSnapshotsQuery, @CurrentPrincipal() principal: Principal) {
    const { limit, cursor, org_id: _org, ...filters } = query;
    if (filters.store_id) await this.storeOf(principal, filters.store_id);
    const order = filters.store_id ? ({ field: 'sequence', direction: -1 } as const) : ({ field: 'created_at', direction: -1 } as const);
    return paginate(this.snapshots, { org_id: principal.actingOrgId, ...filters }, order, { limit, cursor });
  }

  @Get('snapshots/:id')
  @RequiresScope('reports:read')
  async snapshot(@Param('id', UuidPipe) id: string, @Query() query: ReportFormatQuery, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    const document = await this.snapshots.findOne({ _id: id, org_id: principal.actingOrgId });
    if (!document) throw notFound('Report snapshot');
    await this.responses.send(reply, document, query, false);
  }

  @Get('schedule')
  @RequiresScope('reports:read')
  async schedules(@Query() query: ScheduleQuery, @CurrentPrincipal() principal: Principal): Promise<{ data: ReportScheduleResource[] }> {
    if (query.store_id) await this.storeOf(principal, query.store_id);
    const filter = { org_id: principal.actingOrgId, _deleted: { $ne: true }, ...(query.store_id ? { _id: query.store_id } : {}) };
    const schedules = await this.readStore.collection<ReportScheduleDocument>(REPORT_SCHEDULES).find(filter, { sort: { _id: 1 } });
    return { data: schedules.map(scheduleResource) };
  }

  /** 200, not 201: it sets the store's one schedule, whether or not there was one (DESIGN.md section 4). */
  @Post('schedule')
  @HttpCode(200)
  @RequiresScope('reports:generate')
  @Idempotent()
  async setSchedule(@Body() body: SetScheduleBody, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds): Promise<ReportScheduleResource> {
    await this.checkPlan(principal.actingOrgId);
    assertStoreWritable(await this.storeOf(principal, body.store_id));
    const { store_id: storeId, cadence, locale = 'pt-BR', active = true } = body;
    const request: SetReportScheduleRequest = { orgId: principal.actingOrgId, storeId, cadence, locale, active };
    return this.bus.request(COMMANDS.scheduleSet, request, { commandIds, actor: principal.actor });
  }

  @Delete('schedule')
  @RequiresScope('reports:generate')
  async deleteSchedule(@Query() query: DeleteScheduleQuery, @CurrentPrincipal() principal: Principal): Promise<{ store_id: string; deleted: true }> {
    await this.storeOf(principal, query.store_id);
    const request: DeleteReportScheduleRequest = { orgId: principal.actingOrgId, storeId: query.store_id };
    return this.bus.request(COMMANDS.scheduleDelete, request, { actor: principal.actor });
  }

  /** Also for a schedule, which makes reports; before the store, as the spec orders the refusals. */
  private async checkPlan(orgId: string): Promise<void> {
    const refusal = await organizationReportsRefusal(this.readStore, orgId);
    if (refusal) throw refusal;
  }

  private storeOf(principal: Principal, storeId: string): Promise<StoreDocument> {
    return ownStore(this.readStore, principal.actingOrgId, storeId);
  }

  private get snapshots() {
    return this.readStore.collection<ReportSnapshotDocument>(REPORT_SNAPSHOTS);
  }
}

/** A year of a large store's report takes about a second to make (benchmark 6): room for a busy machine. */
const GENERATE_TIMEOUT_MS = 30_000;
