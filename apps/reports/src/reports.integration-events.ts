import { Injectable } from '@nestjs/common';
import {
  integrationEventId,
  REPORT_CSV_TABLES,
  REPORT_TOPICS,
  scheduleResource,
  type IntegrationEvent,
  type ReportCsvTable,
  type ReportReadyData,
  type ReportScheduleChangedData,
} from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { PublishesIntegrationEvents } from '@pss/platform';
import type { IntegrationEventSource } from '@pss/projections';
import type { ScheduleEvent } from './schedule/schedule.decider';
import type { ScheduledRunEvent } from './schedule/scheduled-run.decider';

/**
 * What reports publishes (docs/events.md): `reports.report.ready` once per scheduled run (never for GET
 * /reports/pci), and `reports.schedule.changed`, which inventory mirrors into the organization's partner_settings.
 */
@PublishesIntegrationEvents()
@Injectable()
export class ReportsIntegrationEvents implements IntegrationEventSource {
  readonly name = 'reports';
  readonly filter = { streamPrefixes: ['reportrun-', 'reportschedule-'] };

  toIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
    const event = { type: recorded.type, data: recorded.data } as ScheduledRunEvent | ScheduleEvent;
    const envelope = (type: string, orgId: string, storeId: string, data: ReportReadyData | ReportScheduleChangedData): IntegrationEvent => ({
      id: integrationEventId(recorded.id),
      type,
      version: 1,
      source: 'reports',
      org_id: orgId,
      store_id: storeId,
      occurred_at: recorded.createdAt,
      correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
      position: recorded.position,
      data: { ...data },
    });
    switch (event.type) {
      case 'ScheduledReportDelivered': {
        const { snapshotId, storeId, orgId, cadence, periodStart, periodEnd, locale, sha256 } = event.data;
        return [envelope(REPORT_TOPICS.ready, orgId, storeId, { report_id: snapshotId, store_id: storeId, kind: cadence, period_start: periodStart, period_end: periodEnd, locale, sha256, links: reportLinks(snapshotId) })];
      }
      case 'ReportScheduleSet': {
        const { storeId, orgId, cadence, locale, active, by, at } = event.data;
        const schedule = scheduleResource({ _id: storeId, org_id: orgId, cadence, locale, active, updated_at: at, updated_by: by });
        return [envelope(REPORT_TOPICS.scheduleChanged, orgId, storeId, { store_id: storeId, revision: recorded.revision, schedule })];
      }
      case 'ReportScheduleDeleted': {
        const { storeId, orgId } = event.data;
        return [envelope(REPORT_TOPICS.scheduleChanged, orgId, storeId, { store_id: storeId, revision: recorded.revision, schedule: null })];
      }
      default:
        return [];
    }
  }
}

/** Where the snapshot is fetched with an API token (paths under the API's base URL). */
export function reportLinks(snapshotId: string): ReportReadyData['links'] {
  const base = `/api/v1/reports/pci/snapshots/${snapshotId}`;
  const csv = Object.fromEntries(REPORT_CSV_TABLES.map((table) => [table, `${base}?format=csv&csv_table=${table}`])) as Record<ReportCsvTable, string>;
  return { json: base, pdf: `${base}?format=pdf`, csv };
}
