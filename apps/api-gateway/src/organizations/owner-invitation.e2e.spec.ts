import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { OUTBOX_EXTENSION, outboxDirectory, type OutboxFile } from '@pss/mail';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

describe('owner invitation of a new organization (HTTP, embedded)', () => {
  const partner = embeddedSuite({ scopes: ['orgs:manage'], organization: { 'owner-email': 'partner@acme.example' } });
  let outbox: string;

  beforeAll(() => (outbox = outboxDirectory(partner.service.config)));

  const create = (body: Record<string, unknown>) =>
    partner.service.request('POST', '/api/v1/organizations', { token: partner.token, body: { name: 'Acme Brasil', ...body } });

  const mails = (): OutboxFile[] =>
    readdirSync(outbox)
      .filter((name) => name.endsWith(OUTBOX_EXTENSION))
      .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')));

  const invitationEvents = async (orgId: string) =>
    (await partner.service.app.get<EventStore>(EVENT_STORE).readStream(`org-${orgId}`)).filter((event) => event.type === 'OwnerInvitationRecorded');

  it('sends the invitation (sent): one message in the outbox, with the organization and its link, and no secret', async () => {
    const created = await create({ name: 'Loja Azul', owner_email: 'ana@loja-azul.example' });
    expect(created.status).toBe(201);
    expect(created.body.owner_invite).toBe('sent');
    const [mail] = mails().filter((message) => message.to === 'ana@loja-azul.example');
    // The subject, shown beside the service's own sender address, never carries the creator's text.
    expect(mail.subject).toBe('You are invited to manage an organization on Payment Page Script Security');
    expect(mail.text).toContain('"Loja Azul"');
    expect(mail.html).toBeUndefined();
    expect(mail.text).toMatch(new RegExp(`${partner.service.config.publicUrl}/dashboard/invitations/[A-Za-z0-9_-]{43}\\n`));
    expect(JSON.stringify(mail)).not.toMatch(/pss_tok_|sk_live_|token|password/i);
  });

  it.each([
    ['a URL', 'Verify your account at https://pay.example/login'],
    ['a www. name', 'Acme www.acme-support'],
    ['a domain name', 'Reset at acme-billing.com now'],
    ['a full-width domain name', 'Acme ｂｉｌｌｉｎｇ．ｃｏｍ'],
    ['a domain behind an ideographic full stop', 'Acme evil。com'],
  ])('refuses a name with %s (400 on name), and sends nothing', async (_, name) => {
    const before = mails().length;
    const refused = await create({ name, owner_email: 'victim@bank.example' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        code: 'validation_error',
        message: 'Request validation failed',
        details: [{ field: 'name', message: 'name must not look like a link: no "://", no "www." and no domain names such as shop.example (write "St. Louis", not "St.Louis")' }],
      },
    });
    expect(mails()).toHaveLength(before);
  });

  it('keeps a name with dots that no mail client links', async () => {
    const created = await create({ name: 'Lojas S.A. - St. Louis 2.0', owner_email: 'eva@lojas.example' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Lojas S.A. - St. Louis 2.0');
  });

  it('records the outcome on the organization stream, with the caller as actor', async () => {
    const created = await create({ owner_email: 'bruno@acme.example' });
    const [recorded] = await invitationEvents(created.body.id);
    expect(recorded.data).toEqual({ orgId: created.body.id, outcome: 'sent', at: expect.any(String) });
    expect(recorded.metadata.actor).toBe(`api:${partner.prefix}`);
  });

  it('sends nothing to an address that already owns an organization (existing_user), whatever its case', async () => {
    await create({ owner_email: 'carla@acme.example' });
    const before = mails().length;
    const again = await create({ name: 'Acme Chile', owner_email: 'Carla@ACME.example' });
    expect(again.status).toBe(201);
    expect(again.body.owner_invite).toBe('existing_user');
    expect(mails()).toHaveLength(before);
    expect((await invitationEvents(again.body.id))[0].data).toMatchObject({ outcome: 'existing_user' });
  });

  it('still creates the organization when the e-mail cannot be sent (failed), and logs no address', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    rmSync(outbox, { recursive: true, force: true });
    writeFileSync(outbox, 'an outbox that is not a folder');
    try {
      const created = await create({ owner_email: 'dora@acme.example' });
      expect(created.status).toBe(201);
      expect(created.body.owner_invite).toBe('failed');
      const listed = await partner.service.request('GET', '/api/v1/organizations', { token: partner.token });
      expect(listed.body.data.map((organization: { id: string }) => organization.id)).toContain(created.body.id);
      expect((await invitationEvents(created.body.id))[0].data).toMatchObject({ outcome: 'failed' });
      const logged = JSON.stringify(warn.mock.calls);
      expect(logged).toContain('owner invitation not sent');
      expect(logged).not.toContain('dora@acme.example');
    } finally {
      warn.mockRestore();
      rmSync(outbox, { force: true });
      mkdirSync(outbox);
    }
  });

  it('skips the invitation of an organization without an owner e-mail (admin CLI without --owner-email)', async () => {
    const created = await partner.service.ops('org.create', { name: 'No Owner Yet' });
    expect(created.owner_invite).toBe('skipped');
    expect(created.owner_email).toBeNull();
    const [recorded] = await invitationEvents(created.id);
    expect(recorded.data).toMatchObject({ outcome: 'skipped' });
    expect(recorded.metadata.actor).toBe('admin-cli');
  });

  it('invites the owner of an organization made with the admin CLI too', async () => {
    const created = await partner.service.ops('org.create', { name: 'Operator Made', 'owner-email': 'eva@acme.example' });
    expect(created.owner_invite).toBe('sent');
    expect(mails().map((message) => message.to)).toContain('eva@acme.example');
  });
});
