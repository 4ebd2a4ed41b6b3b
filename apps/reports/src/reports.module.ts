import { Module } from '@nestjs/common';
import { ReportFileLinksModule } from '@pss/report-files/report-file-links';
import { ReportsAuditLogProjection } from './audit/reports-audit-log.projection';
import { FactsCatchUp } from './facts/facts-catch-up';
import { ReportFacts } from './facts/report-facts';
import { ReportFactsConsumer } from './facts/report-facts.consumer';
import { SdkActivityProjection } from './facts/sdk-activity.projection';
import { ReportsIntegrationEvents } from './reports.integration-events';
import { ReportsMessages } from './reports.messages';
import { PdfThread } from './rendering/pdf-thread';
import { ReportsOps } from './reports.ops';
import { ReportSchedules } from './schedule/report-schedules';
import { ScheduleProjection } from './schedule/schedule.projection';
import { ScheduledReportsJob } from './schedule/scheduled-reports.job';
import { ChainAudit } from './snapshot/chain-audit';
import { ChainVerificationMessages } from './snapshot/chain-verification.messages';
import { ReportGenerator } from './snapshot/report-generator';
import { ReportPdfs } from './snapshot/report-pdfs';
import { SnapshotProjection } from './snapshot/snapshot.projection';
import { SnapshotRetentionJob } from './snapshot/snapshot-retention.job';

/**
 * PCI report snapshots (JSON data, PDF), schedules and scheduled delivery, built from reports' own history of
 * inventory's and alerts' integration events (docs/reports.md).
 */
@Module({
  imports: [ReportFileLinksModule],
  controllers: [ReportsMessages, ReportFactsConsumer, ChainVerificationMessages],
  providers: [
    ReportFacts,
    FactsCatchUp,
    SdkActivityProjection,
    SnapshotProjection,
    ScheduleProjection,
    ReportsAuditLogProjection,
    ReportGenerator,
    ReportPdfs,
    PdfThread,
    ChainAudit,
    ReportSchedules,
    ScheduledReportsJob,
    SnapshotRetentionJob,
    ReportsIntegrationEvents,
    ReportsOps,
  ],
})
export class ReportsModule {}
