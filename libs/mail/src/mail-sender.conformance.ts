import type { MailMessage, MailSender } from './mail-sender.port';

/** A message as it came out at the far end of an adapter (the outbox folder, the SMTP server's mailbox). */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailSenderUnderTest {
  sender: MailSender;
  /** Everything delivered so far, in any order. */
  received(): Promise<ReceivedMail[]>;
  cleanup(): Promise<void>;
}

const invitation: MailMessage = {
  to: 'owner@acme.example',
  subject: 'You are invited to Acme Checkout',
  text: 'Hello,\n\nOpen https://pss.example/invite?org=1 to accept.\n',
};

const bySubject = (mails: ReceivedMail[]) => [...mails].sort((a, b) => a.subject.localeCompare(b.subject));

/**
 * The promises of the MailSender port. Every adapter runs this one suite, each test on an empty mailbox.
 */
export function mailSenderConformance(name: string, factory: () => Promise<MailSenderUnderTest>): void {
  describe(`${name} mail sender (conformance)`, () => {
    let mail: MailSenderUnderTest;

    beforeEach(async () => {
      mail = await factory();
    });
    afterEach(() => mail.cleanup());

    it('delivers a plain-text message to its one recipient', async () => {
      await mail.sender.send(invitation);
      expect(await mail.received()).toEqual([{ to: invitation.to, subject: invitation.subject, text: invitation.text }]);
    });

    it('carries the HTML alternative when there is one', async () => {
      await mail.sender.send({ ...invitation, html: '<p>Open <a href="https://pss.example/invite?org=1">the invitation</a>.</p>' });
      const [received] = await mail.received();
      expect(received.text).toBe(invitation.text);
      expect(received.html).toContain('<a href="https://pss.example/invite?org=1">the invitation</a>');
    });

    it('keeps non-ASCII subjects and bodies intact', async () => {
      const message = { ...invitation, subject: 'Convite: Organização São Paulo ✓', text: 'Olá, ação necessária — 支付 ✓\n' };
      await mail.sender.send(message);
      expect(await mail.received()).toEqual([{ to: message.to, subject: message.subject, text: message.text }]);
    });

    it('delivers every message of a burst exactly once', async () => {
      const burst = Array.from({ length: 5 }, (_, i) => ({ ...invitation, to: `owner${i}@acme.example`, subject: `Invitation ${i}` }));
      await Promise.all(burst.map((message) => mail.sender.send(message)));
      expect(bySubject(await mail.received())).toEqual(burst.map(({ to, subject, text }) => ({ to, subject, text })));
    });

    it.each([
      ['no address', ''],
      ['something that is not an address', 'owner at acme'],
      ['two addresses', 'a@acme.example, b@acme.example'],
    ])('refuses a recipient with %s and delivers nothing', async (_case, to) => {
      await expect(mail.sender.send({ ...invitation, to })).rejects.toThrow(/recipient/);
      expect(await mail.received()).toEqual([]);
    });
  });
}
