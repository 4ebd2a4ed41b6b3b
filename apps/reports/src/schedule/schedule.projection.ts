import { REPORT_SCHEDULES, type ReportScheduleDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { ScheduleEvent } from './schedule.decider';

/** Each store's schedule; a deleted one is kept as `_deleted` so a replayed older event cannot bring it back. */
export type ScheduleDocument = ReportScheduleDocument & { _deleted?: boolean; _since: string | null };

const isScheduleEvent = canHandle<ScheduleEvent>({ ReportScheduleSet: true, ReportScheduleDeleted: true });

export class ScheduleProjection extends readModelProjection({
  name: REPORT_SCHEDULES,
  streamPrefixes: ['reportschedule-'],
  collections: { [REPORT_SCHEDULES]: [{ key: { org_id: 1, _id: 1 } }] },
  canHandle: isScheduleEvent,
  async evolve(event, context) {
    const schedules = context.collection<ScheduleDocument>(REPORT_SCHEDULES);
    if (event.type === 'ReportScheduleDeleted') {
      await applyOnce(schedules, event.data.storeId, event, { $set: { _deleted: true, _since: null } });
      return;
    }
    const { storeId, orgId, cadence, locale, active, by, at } = event.data;
    const existing = await schedules.findOne({ _id: storeId });
    const since = existing && !existing._deleted && existing._since ? existing._since : at;
    await applyOnce(
      schedules,
      storeId,
      event,
      { $set: { org_id: orgId, cadence, locale, active, updated_at: at, updated_by: by, _deleted: false, _since: since } },
      { upsert: true },
    );
  },
}) {}
