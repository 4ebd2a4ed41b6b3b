import { Inject, Injectable } from '@nestjs/common';
import { REPORT_SCHEDULES, scheduleResource, type DeleteReportScheduleRequest, type ReportScheduleResource, type SetReportScheduleRequest } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { scheduleDecider, scheduleStream } from './schedule.decider';
import type { ScheduleDocument } from './schedule.projection';

/** POST and DELETE /reports/pci/schedule. The gateway has checked that the store is the organization's. */
@Injectable()
export class ReportSchedules {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async set(request: SetReportScheduleRequest): Promise<ReportScheduleResource> {
    const { orgId, actor, storeId, cadence, locale, active } = request;
    const at = this.clock.now().toISOString();
    await this.aggregates.decide(scheduleStream(storeId), scheduleDecider, { type: 'SetSchedule', storeId, orgId, cadence, locale, active, by: actor, at }, { actor, orgId });
    const schedule = await this.readStore.collection<ScheduleDocument>(REPORT_SCHEDULES).findOne({ _id: storeId });
    return scheduleResource(schedule!);
  }

  async delete(request: DeleteReportScheduleRequest): Promise<{ store_id: string; deleted: true }> {
    const { orgId, actor, storeId } = request;
    const at = this.clock.now().toISOString();
    await this.aggregates.decide(scheduleStream(storeId), scheduleDecider, { type: 'DeleteSchedule', storeId, orgId, by: actor, at }, { actor, orgId });
    return { store_id: storeId, deleted: true };
  }
}
