import { auditLogProjection, type AuditedChange } from '@pss/projections';
import type { ScheduleEvent } from '../schedule/schedule.decider';

/** The reports' part of the audit log: a store's report schedule set (created or changed) and deleted. */
export class ReportsAuditLogProjection extends auditLogProjection<ScheduleEvent>({
  owner: 'reports',
  streamPrefixes: ['reportschedule-'],
  handles: { ReportScheduleSet: true, ReportScheduleDeleted: true },
  describe(event): AuditedChange {
    switch (event.type) {
      case 'ReportScheduleSet': {
        const { storeId, cadence, locale, active } = event.data;
        return { target: { type: 'schedule', id: storeId }, action: 'schedule.set', details: { store_id: storeId, cadence, locale, active } };
      }
      case 'ReportScheduleDeleted':
        return { target: { type: 'schedule', id: event.data.storeId }, action: 'schedule.deleted', details: { store_id: event.data.storeId } };
    }
  },
}) {}
