import { Inject, Injectable } from '@nestjs/common';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import type { DeleteReportScheduleRequest, ReportScheduleResource, SetReportScheduleRequest } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { scheduleDecider, scheduleStream } from './schedule.decider';

/** POST and DELETE /reports/pci/schedule. The gateway has checked the plan and that the store is the organization's. */
@Injectable()
export class ReportSchedules {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async set(request: SetReportScheduleRequest & CommandMetaCarrier): Promise<ReportScheduleResource> {
    const { orgId, storeId, cadence, locale, active, command } = request;
    const actor = commandActor(command);
    const at = this.clock.now().toISOString();
    await this.aggregates.decide(scheduleStream(storeId), scheduleDecider, { type: 'SetSchedule', storeId, orgId, cadence, locale, active, by: actor, at }, { actor, orgId, deadline: command?.deadline });
    return { store_id: storeId, cadence, locale, active, updated_at: at, updated_by: actor };
  }

  async delete(request: DeleteReportScheduleRequest & CommandMetaCarrier): Promise<{ store_id: string; deleted: true }> {
    const { orgId, storeId, command } = request;
    const actor = commandActor(command);
    const at = this.clock.now().toISOString();
    await this.aggregates.decide(scheduleStream(storeId), scheduleDecider, { type: 'DeleteSchedule', storeId, orgId, by: actor, at }, { actor, orgId, deadline: command?.deadline });
    return { store_id: storeId, deleted: true };
  }
}
