import { Module } from '@nestjs/common';

/** PCI report snapshots (JSON, PDF, CSV), schedules and scheduled delivery. */
@Module({})
export class ReportsModule {}
