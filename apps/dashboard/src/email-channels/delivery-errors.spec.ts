import { createServer, type AddressInfo, type Server } from 'node:net';
import { SmtpMailSender } from '@pss/mail';
import { freePort } from '@pss/testkit';
import { translator } from '../i18n/catalogue';
import { knownDeliveryError } from './delivery-errors';

const ptBR = translator('pt-BR');
const en = translator('en');

/**
 * A mail server that speaks just enough SMTP to refuse one step with `reply` (AUTH, MAIL or RCPT): the errors the
 * notifier records are the SMTP client's own messages, so the mapping is tested on what nodemailer really writes.
 */
async function refusingServer(step: 'AUTH' | 'MAIL' | 'RCPT', reply: string): Promise<Server> {
  const server = createServer((socket) => {
    socket.write('220 mail.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('latin1').split('\r\n').filter(Boolean)) {
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-mail.test\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === step ? `${reply}\r\n` : '250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** What sending one e-mail through `smtpUrl` fails with, as the courier records it (the error's message). */
async function sendingFails(smtpUrl: string): Promise<string> {
  const sender = new SmtpMailSender(smtpUrl, 'PSS <no-reply@pss.example>');
  try {
    await sender.send({ to: 'someone@shop.example', subject: 'test', text: 'test' });
  } catch (error) {
    return (error as Error).message;
  } finally {
    sender.onApplicationShutdown();
  }
  throw new Error('the e-mail was sent');
}

async function refusedBy(step: 'AUTH' | 'MAIL' | 'RCPT', reply: string, credentials = ''): Promise<string> {
  const server = await refusingServer(step, reply);
  try {
    return await sendingFails(`smtp://${credentials}127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

describe("a failed e-mail's error, as the deliveries page and the test's notice say it", () => {
  it('says a refused connection and a name that does not resolve, from the errors the SMTP client really gives', async () => {
    const refused = await sendingFails(`smtp://127.0.0.1:${await freePort()}`);
    expect(refused).toMatch(/ECONNREFUSED/);
    expect(knownDeliveryError(ptBR, refused)).toBe('o servidor de e-mail recusou a conexão: ele está fora do ar ou o endereço configurado no serviço está errado.');
    expect(knownDeliveryError(en, refused)).toBe("the mail server refused the connection: it is down, or the service's configured address is wrong.");
    const unknownHost = await sendingFails('smtp://mail.invalid:25');
    expect(knownDeliveryError(ptBR, unknownHost)).toBe('o nome do servidor de e-mail configurado no serviço não foi encontrado.');
  }, 20_000);

  it("says the SMTP refusal's class with the server's code: a recipient, the service's login, for good or for now", async () => {
    const recipient = await refusedBy('RCPT', '550 5.1.1 <someone@shop.example>: Recipient address rejected: User unknown');
    expect(knownDeliveryError(ptBR, recipient)).toBe('o servidor de e-mail recusou o endereço do destinatário (código 550); confira o endereço.');
    const login = await refusedBy('AUTH', '535 5.7.8 Authentication credentials invalid', 'user:wrong@');
    expect(knownDeliveryError(en, login)).toBe('the mail server refused the user name and password configured in the service.');
    const forGood = await refusedBy('MAIL', '554 5.7.1 Sender rejected: policy');
    expect(knownDeliveryError(ptBR, forGood)).toBe('o servidor de e-mail recusou a mensagem em definitivo (código 554).');
    const forNow = await refusedBy('MAIL', '451 4.7.1 Greylisted, try again in 5 minutes');
    expect(knownDeliveryError(en, forNow)).toBe('the mail server refused the message for now (code 451); a new attempt usually gets through.');
  }, 20_000);

  it("says nodemailer's timeouts (connection, greeting, socket) without waiting for them", () => {
    for (const timedOut of ['Connection timeout', 'Greeting never received', 'Timeout']) {
      expect(knownDeliveryError(ptBR, timedOut)).toBe('o servidor de e-mail não respondeu a tempo.');
    }
  });

  it('leaves an error it does not know unsaid, for the page to show in the transport’s own words', () => {
    expect(knownDeliveryError(ptBR, "EACCES: permission denied, mkdir '/data/outbox'")).toBeUndefined();
    // A colon followed by no SMTP code is no refusal by the server.
    expect(knownDeliveryError(ptBR, 'Invalid sender "x": missing domain')).toBeUndefined();
    expect(knownDeliveryError(ptBR, 'Timeout while reading the template')).toBeUndefined();
  });
});
