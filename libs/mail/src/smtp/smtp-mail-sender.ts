import type { OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import { assertSendable, type MailMessage, type MailSender } from '../mail-sender.port';

/**
 * Mail is sent while a request waits for it (an owner invitation), so a dead server must fail fast rather than
 * hold the request for nodemailer's default two minutes: the bus gives a command 10 s in all.
 */
const CONNECTION_TIMEOUT_MS = 3_000;
const GREETING_TIMEOUT_MS = 3_000;
const SOCKET_TIMEOUT_MS = 5_000;

/** The distributed adapter: SMTP through nodemailer, one connection per message. */
export class SmtpMailSender implements MailSender, OnApplicationShutdown {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, from: string) {
    this.transport = createTransport(
      new SMTPTransport({
        url: smtpUrl,
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        greetingTimeout: GREETING_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
      }),
      { from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    assertSendable(message);
    await this.transport.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
    });
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
