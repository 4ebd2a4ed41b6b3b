import { Module } from '@nestjs/common';
import { ReportFileLinksModule } from '@pss/report-files/report-file-links';
import { ReportFilesController } from './report-files.controller';

/** GET /files/v1/reports: report files by signed link. */
@Module({ imports: [ReportFileLinksModule], controllers: [ReportFilesController] })
export class ReportFilesHttpModule {}
