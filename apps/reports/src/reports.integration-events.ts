import { Injectable } from '@nestjs/common';
import {
  integrationEventId,
  REPORT_CSV_TABLES,
  REPORT_TOPICS,
  scheduleResource,
  type ReportCsvTable,
  type ReportReadyData,
  type ReportsFact,
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

  toIntegrationEvents(recorded: RecordedEvent): ReportsFact[] {
    const event = { type: recorded.type, data: recorded.data } as ScheduledRunEvent | ScheduleEvent;
    const id = integrationEventId(recorded.id);
    // The envelope's fields after `id` and `type`, in the order its consumers have always received them. Each fact
    // below is a literal of the catalogue's type, so a field the catalogue (and so docs/events.md) lacks, or one
    // it requires and the fact leaves out, fails typecheck.
    const envelope = (orgId: string, storeId: string) => ({
      version: 1,
      source: 'reports',
      org_id: orgId,
      store_id: storeId,
      occurred_at: recorded.createdAt,
      correlation_id: (recorded.metadata.correlationId as string | undefined) ?? null,
      position: recorded.position,
    });
    switch (event.type) {
      case 'ScheduledReportDelivered': {
        const { snapshotId, storeId, orgId, cadence, periodStart, periodEnd, locale, sha256 } = event.data;
        const links = reportLinks(snapshotId);
        return [{ id, type: REPORT_TOPICS.ready, ...envelope(orgId, storeId), data: { report_id: snapshotId, store_id: storeId, kind: cadence, period_start: periodStart, period_end: periodEnd, locale, sha256, links } }];
      }
      case 'ReportScheduleSet': {
        const { storeId, orgId, cadence, locale, active, by, at } = event.data;
        const schedule = scheduleResource({ _id: storeId, org_id: orgId, cadence, locale, active, updated_at: at, updated_by: by });
        return [{ id, type: REPORT_TOPICS.scheduleChanged, ...envelope(orgId, storeId), data: { store_id: storeId, revision: recorded.revision, schedule } }];
      }
      case 'ReportScheduleDeleted': {
        const { storeId, orgId } = event.data;
        return [{ id, type: REPORT_TOPICS.scheduleChanged, ...envelope(orgId, storeId), data: { store_id: storeId, revision: recorded.revision, schedule: null } }];
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
