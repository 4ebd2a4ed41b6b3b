import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { MailModule } from '@pss/mail';
import { NotifierAuditLogProjection } from './audit/notifier-audit-log.projection';
import { ChangeChannelHandler } from './channels/change-channel';
import { ChannelAccess } from './channels/channel-access';
import { ChannelDirectory } from './channels/channel-directory';
import { ChannelProjection } from './channels/channel.projection';
import { ChannelsMessages } from './channels/channels.messages';
import { EmailChannelsMessages } from './channels/email-channels.messages';
import { CreateChannelHandler } from './channels/create-channel';
import { TestChannelHandler } from './channels/test-channel';
import { Deliveries } from './delivery/deliveries';
import { DeliveryProjection } from './delivery/delivery.projection';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { MissedFirstAttempts } from './delivery/missed-first-attempts';
import { NotificationsConsumer } from './delivery/notifications.consumer';
import { RetryCycle } from './delivery/retry-cycle';
import { NotifierOps } from './notifier.ops';
import { Courier } from './outbound/courier';
import { DEFAULT_DELIVERY_CLIENT_SETTINGS, DELIVERY_CLIENT_SETTINGS, type DeliveryClientSettings } from './outbound/delivery-client-settings';
import { WebhookClient } from './outbound/webhook-client';
import { OwnerMailConsumer } from './owner-mail/owner-mail.consumer';
/** Notification channels and signed webhook delivery with retries. */
@Module({
  imports: [CqrsModule, MailModule.forRoot()],
  controllers: [ChannelsMessages, EmailChannelsMessages, NotificationsConsumer, OwnerMailConsumer],
  providers: [
    { provide: DELIVERY_CLIENT_SETTINGS, useValue: DEFAULT_DELIVERY_CLIENT_SETTINGS },
    {
      provide: WebhookClient,
      useFactory: (settings: DeliveryClientSettings, config: ServiceConfig) => new WebhookClient({ ...settings, allowHosts: config.webhookAllowHosts }),
      inject: [DELIVERY_CLIENT_SETTINGS, SERVICE_CONFIG],
    },
    ChannelProjection,
    ChannelAccess,
    DeliveryProjection,
    NotifierAuditLogProjection,
    DeliveryMetrics,
    ChannelDirectory,
    CreateChannelHandler,
    ChangeChannelHandler,
    TestChannelHandler,
    Courier,
    Deliveries,
    RetryCycle,
    MissedFirstAttempts,
    NotifierOps,
  ],
})
export class NotifierModule {}
