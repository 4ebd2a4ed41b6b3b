import { Injectable } from '@nestjs/common';
import { REPORT_SCHEDULES, type ReportScheduleDocument } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, type Projection, type ProjectionContext } from '@pss/projections';
import type { ScheduleEvent } from './schedule.decider';

/** Each store's schedule; a deleted one is kept as `_deleted` so a replayed older event cannot bring it back. */
export type ScheduleDocument = ReportScheduleDocument & { _deleted?: boolean; _since: string | null };

@ReadModelProjection()
@Injectable()
export class ScheduleProjection implements Projection {
  readonly name = REPORT_SCHEDULES;
  readonly filter = { streamPrefixes: ['reportschedule-'] };
  readonly collections: Projection['collections'] = { [REPORT_SCHEDULES]: [{ key: { org_id: 1, _id: 1 } }] };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as ScheduleEvent;
    const schedules = context.collection<ScheduleDocument>(REPORT_SCHEDULES);
    if (event.type === 'ReportScheduleDeleted') {
      await applyOnce(schedules, event.data.storeId, recorded, { $set: { _deleted: true, _since: null } });
      return;
    }
    const { storeId, orgId, cadence, locale, active, by, at } = event.data;
    const existing = await schedules.findOne({ _id: storeId });
    const since = existing && !existing._deleted && existing._since ? existing._since : at;
    await applyOnce(
      schedules,
      storeId,
      recorded,
      { $set: { org_id: orgId, cadence, locale, active, updated_at: at, updated_by: by, _deleted: false, _since: since } },
      { upsert: true },
    );
  }
}
