import { Module } from '@nestjs/common';
import { ReportResponses } from './report-responses';
import { ReportsController } from './reports.controller';

@Module({ controllers: [ReportsController], providers: [ReportResponses] })
export class ReportsHttpModule {}
