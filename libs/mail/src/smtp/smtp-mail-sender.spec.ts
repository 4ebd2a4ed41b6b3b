import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { CONTAINER_IMAGES, CONTAINER_TIMEOUT_MS, describeWithContainers } from '@pss/testkit';
import { mailSenderConformance, type ReceivedMail } from '../mail-sender.conformance';
import { SmtpMailSender } from './smtp-mail-sender';

const SMTP_PORT = 1025;
const HTTP_PORT = 8025;

interface MailpitSummary {
  ID: string;
}
interface MailpitMessage {
  To: Array<{ Address: string }>;
  Subject: string;
  Text: string;
  HTML: string;
}

describeWithContainers('SmtpMailSender on Mailpit', () => {
  let mailpit: StartedTestContainer;
  let api: string;

  beforeAll(async () => {
    mailpit = await new GenericContainer(CONTAINER_IMAGES.mailpit)
      .withExposedPorts(SMTP_PORT, HTTP_PORT)
      .withWaitStrategy(Wait.forHttp('/api/v1/info', HTTP_PORT))
      .start();
    api = `http://${mailpit.getHost()}:${mailpit.getMappedPort(HTTP_PORT)}/api/v1`;
  }, CONTAINER_TIMEOUT_MS);
  afterAll(async () => {
    await mailpit?.stop();
  });

  const call = async <T>(path: string, method = 'GET'): Promise<T> => {
    const response = await fetch(`${api}${path}`, { method });
    if (!response.ok) throw new Error(`mailpit ${method} ${path}: ${response.status}`);
    return (method === 'GET' ? response.json() : undefined) as T;
  };

  // SMTP carries CRLF line ends and MIME adds a final one; the port's promise is about the text, not the wire.
  const asSent = (text: string) => text.replace(/\r\n/g, '\n').replace(/\n*$/, '\n');

  mailSenderConformance('smtp', async () => {
    await call('/messages', 'DELETE');
    const sender = new SmtpMailSender(`smtp://${mailpit.getHost()}:${mailpit.getMappedPort(SMTP_PORT)}`, 'PSS <no-reply@pss.example>');
    return {
      sender,
      received: async () => {
        const { messages } = await call<{ messages: MailpitSummary[] }>('/messages');
        const full = await Promise.all(messages.map(({ ID }) => call<MailpitMessage>(`/message/${ID}`)));
        return full.map(
          (message): ReceivedMail => ({
            to: message.To.map((to) => to.Address).join(', '),
            subject: message.Subject,
            text: asSent(message.Text),
            ...(message.HTML ? { html: message.HTML } : {}),
          }),
        );
      },
      cleanup: async () => sender.onApplicationShutdown(),
    };
  });
});
