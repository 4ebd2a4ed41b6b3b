import { Module } from '@nestjs/common';

/** Alerts: detection from inventory's integration events, deduplication, resolve and reopen, SDK-silent watch. */
@Module({})
export class AlertsModule {}
