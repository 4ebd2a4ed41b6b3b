import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { Controller, Inject } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  COMMANDS,
  type DeleteReportScheduleRequest,
  type GenerateReportReply,
  type GenerateReportRequest,
  type ReportPdfReply,
  type ReportPdfRequest,
  type SetReportScheduleRequest,
} from '@pss/contracts';
import { ReportPdfs } from './snapshot/report-pdfs';
import { GenerationLimiter } from './snapshot/generation-limits';
import { ReportGenerator } from './snapshot/report-generator';
import { ReportSchedules } from './schedule/report-schedules';

/** The reports commands (docs/events.md). The gateway has checked scopes, plan and that the store is the caller's. */
@Controller()
export class ReportsMessages {
  private readonly limiter: GenerationLimiter;

  constructor(
    private readonly generator: ReportGenerator,
    private readonly pdfs: ReportPdfs,
    private readonly schedules: ReportSchedules,
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
  ) {
    this.limiter = new GenerationLimiter({ concurrent: config.reportGenerationsConcurrent, perMinute: config.reportGenerationsPerMinute });
  }

  /** GET /reports/pci: the newest snapshot of exactly this period when `reuse`, else a new on_demand one. */
  @MessagePattern(COMMANDS.reportGenerate)
  async generate(@Payload() request: GenerateReportRequest & CommandMetaCarrier): Promise<GenerateReportReply> {
    const { orgId, storeId, periodStart, periodEnd, locale, command } = request;
    const generatedBy = commandActor(command);
    const reused = request.reuse ? await this.generator.newestOf(orgId, storeId, periodStart, periodEnd, locale) : null;
    if (reused) return { snapshot: reused, generated: false };
    // Wall time, not the injected clock: the limit protects this machine's disk and CPU, which a frozen clock does not.
    const release = this.limiter.admit(orgId, Date.now());
    try {
      const made = await this.generator.generate({ orgId, storeId, kind: 'on_demand', periodStart, periodEnd, locale, generatedBy, deadline: command?.deadline });
      return { snapshot: made, generated: true };
    } finally {
      release();
    }
  }

  @MessagePattern(COMMANDS.reportPdf)
  pdf(@Payload() request: ReportPdfRequest): Promise<ReportPdfReply> {
    return this.pdfs.link(request.orgId, request.snapshotId);
  }

  @MessagePattern(COMMANDS.scheduleSet)
  setSchedule(@Payload() request: SetReportScheduleRequest & CommandMetaCarrier) {
    return this.schedules.set(request);
  }

  @MessagePattern(COMMANDS.scheduleDelete)
  deleteSchedule(@Payload() request: DeleteReportScheduleRequest & CommandMetaCarrier) {
    return this.schedules.delete(request);
  }
}
