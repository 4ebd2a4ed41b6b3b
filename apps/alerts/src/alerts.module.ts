import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AlertOccurrences } from './alert/alert-occurrences';
import { AlertProjection } from './alert/alert.projection';
import { AlertsMessages } from './alert/alerts.messages';
import { UpdateAlertHandler } from './alert/update-alert';
import { AlertsIntegrationEvents } from './alerts.integration-events';
import { AlertsAuditLogProjection } from './audit/alerts-audit-log.projection';
import { InventorySignalsConsumer } from './detection/inventory-signals.consumer';
import { SdkSilenceWatcher } from './sdk-watch/sdk-silence.watcher';
import { SdkWatch } from './sdk-watch/sdk-watch';
import { SdkWatchConsumer } from './sdk-watch/sdk-watch.consumer';
import { SdkWatchProjection } from './sdk-watch/sdk-watch.projection';

/** Alerts: detection from inventory's integration events, deduplication, resolve and reopen, SDK-silent watch. */
@Module({
  imports: [CqrsModule],
  controllers: [AlertsMessages, InventorySignalsConsumer, SdkWatchConsumer],
  providers: [
    AlertProjection,
    AlertOccurrences,
    UpdateAlertHandler,
    SdkWatchProjection,
    SdkWatch,
    SdkSilenceWatcher,
    AlertsIntegrationEvents,
    AlertsAuditLogProjection,
  ],
})
export class AlertsModule {}
