import { Module, type DynamicModule } from '@nestjs/common';
import { join } from 'node:path';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { MAIL_SENDER, type MailSender } from './mail-sender.port';
import { mailSettings } from './mail-settings';
import { OutboxMailSender } from './outbox/outbox-mail-sender';
import { SmtpMailSender } from './smtp/smtp-mail-sender';

/** The outbox folder of the embedded mode, under the data directory. */
export const outboxDirectory = (config: Pick<ServiceConfig, 'dataDir'>): string => join(config.dataDir, 'outbox');

export function createMailSender(config: ServiceConfig, clock: Clock, env: NodeJS.ProcessEnv = process.env): MailSender {
  const settings = mailSettings(env, config.publicUrl);
  return config.mode === 'embedded'
    ? new OutboxMailSender(outboxDirectory(config), settings.from, clock)
    : new SmtpMailSender(settings.smtpUrl, settings.from);
}

/**
 * MAIL_SENDER for the whole application, the adapter chosen by the service configuration (PlatformModule's
 * SERVICE_CONFIG). It takes no argument so that the feature modules that send mail can import it themselves;
 * imported several times, it is still one module and one sender.
 */
@Module({})
export class MailModule {
  static forRoot(): DynamicModule {
    return {
      module: MailModule,
      global: true,
      providers: [
        {
          provide: MAIL_SENDER,
          useFactory: (config: ServiceConfig, clock: Clock) => createMailSender(config, clock),
          inject: [SERVICE_CONFIG, CLOCK],
        },
      ],
      exports: [MAIL_SENDER],
    };
  }
}
