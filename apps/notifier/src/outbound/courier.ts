import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '@pss/kernel';
import { MAIL_SENDER, type MailSender } from '@pss/mail';
import type { Channel } from '../channels/channel.events';
import type { AttemptOutcome } from '../delivery/delivery.decider';
import type { Envelope } from '../events/webhook-event';
import { SecretBox } from '@pss/secrets';
import { mailOf, webhookBody } from './payloads';
import { deliveryHeaders } from './signature';
import { WebhookClient } from './webhook-client';

/** Which lane of the per-endpoint gate an attempt waits in: the receiver's origin, or the mail server. */
export const endpointOf = (channel: Channel): string => (channel.url ? new URL(channel.url).origin : 'mail');

/** Makes one attempt over a channel as it is now: a signed POST, or an e-mail to each recipient. */
@Injectable()
export class Courier implements OnApplicationShutdown {
  constructor(
    private readonly client: WebhookClient,
    private readonly secrets: SecretBox,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Never throws: whatever goes wrong is the attempt's error. */
  async send(channel: Channel, deliveryId: string, envelope: Envelope): Promise<AttemptOutcome> {
    try {
      return channel.type === 'email' ? await this.email(channel.recipients ?? [], envelope) : await this.post(channel, deliveryId, envelope);
    } catch (error) {
      return { delivered: false, error: (error as Error).message };
    }
  }

  onApplicationShutdown(): void {
    this.client.close();
  }

  private post(channel: Channel, deliveryId: string, envelope: Envelope): Promise<AttemptOutcome> {
    const body = webhookBody(channel.format!, envelope);
    // Opened for this attempt only, from the channel as it is now: a rotated secret applies to pending retries.
    const secret = channel.secret ? this.secrets.open(channel.secret, channel.channelId) : null;
    return this.client.post(channel.url!, deliveryHeaders(envelope.type, deliveryId, body, secret, this.clock.now()), body);
  }

  private async email(recipients: string[], envelope: Envelope): Promise<AttemptOutcome> {
    const mail = mailOf(envelope);
    for (const to of recipients) await this.mail.send({ to, ...mail });
    return { delivered: true, status: null };
  }
}
