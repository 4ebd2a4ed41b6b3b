import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type ChannelResource, type ChannelTestResult } from '@pss/contracts';
import { channelDeliveries, listEmailChannels } from '@pss/dashboard-reads';
import { OUTBOX_EXTENSION, outboxDirectory, type OutboxFile } from '@pss/mail';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/** The dashboard's e-mail channels over the bus, their test e-mail in the outbox and its delivery in the history. */
describe('dashboard e-mail channels and deliveries (bus commands, embedded)', () => {
  const actor = { actor: 'user:owner@shop.example' };
  let service: EmbeddedHarness;
  let bus: Bus;
  let readStore: ReadStore;
  let tenant: { orgId: string; token: string };

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    bus = service.app.get(BUS);
    readStore = service.app.get(READ_STORE);
    tenant = await service.tenant(['stores:write', 'stores:read', 'webhooks:manage'], { plan: 'enterprise' });
  });
  afterAll(() => service.close());

  const send = <Reply>(pattern: string, request: Record<string, unknown>) => bus.request<Reply>(pattern, { orgId: tenant.orgId, ...request }, actor);
  const create = (input: Record<string, unknown>) => send<ChannelResource>(COMMANDS.emailChannelCreate, { input: { name: 'Security team', recipients: ['a@shop.example'], ...input } });
  const mailsTo = (address: string): OutboxFile[] => {
    const outbox = outboxDirectory(service.config);
    return readdirSync(outbox)
      .filter((name) => name.endsWith(OUTBOX_EXTENSION))
      .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as OutboxFile)
      .filter((mail) => mail.to === address);
  };

  it('creates a channel with two recipients whose test lands in the outbox for each and shows in its deliveries', async () => {
    const channel = await create({ recipients: ['Ana@Shop.example', 'bruno@shop.example'] });
    expect(channel).toEqual(expect.objectContaining({ type: 'email', name: 'Security team', recipients: ['ana@shop.example', 'bruno@shop.example'], store_id: null, active: true }));
    expect((await listEmailChannels(readStore, tenant.orgId)).map((listed) => listed.id)).toContain(channel.id);

    const tested = await send<ChannelTestResult>(COMMANDS.emailChannelTest, { id: channel.id });
    expect(tested).toEqual({ id: channel.id, delivered: true, error: null });
    expect(mailsTo('ana@shop.example')).toHaveLength(1);
    expect(mailsTo('bruno@shop.example')).toHaveLength(1);

    const [delivery] = await channelDeliveries(readStore, tenant.orgId, channel.id, new Date());
    expect(delivery).toEqual({
      delivery_id: expect.any(String),
      event_type: 'test',
      event_id: expect.stringMatching(/^evt_/),
      time: expect.any(String),
      attempts: 1,
      outcome: 'delivered',
      status_code: null,
      duration_ms: expect.any(Number),
      next_retry_at: null,
      error: null,
    });
  });

  it('refuses more than 5 recipients, an address that is not one, no name and no recipient, one detail per field', async () => {
    const six = ['1', '2', '3', '4', '5', '6'].map((n) => `r${n}@shop.example`);
    await expect(create({ recipients: six })).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'recipients', message: 'an e-mail channel has at most 5 recipients' }] });
    await expect(create({ recipients: ['not-an-address'] })).rejects.toMatchObject({ details: [{ field: 'recipients', message: 'not e-mail addresses: not-an-address' }] });
    await expect(create({ name: ' ', recipients: [] })).rejects.toMatchObject({
      details: [
        { field: 'name', message: 'name is required' },
        { field: 'recipients', message: 'at least one recipient is required' },
      ],
    });
  });

  it("changes a channel's recipients and name, scoped to one store, then deletes it", async () => {
    const store = await service.createStore(tenant.token);
    const channel = await create({ store_id: store.id });
    expect(channel.store_id).toBe(store.id);

    const changed = await send<ChannelResource>(COMMANDS.emailChannelUpdate, { id: channel.id, input: { name: 'Finance', recipients: ['fin@shop.example'], min_severity: 'critical' } });
    expect(changed).toEqual(expect.objectContaining({ name: 'Finance', recipients: ['fin@shop.example'], min_severity: 'critical', store_id: store.id }));

    await expect(send(COMMANDS.emailChannelDelete, { id: channel.id })).resolves.toEqual({ id: channel.id, deleted: true });
    expect((await listEmailChannels(readStore, tenant.orgId)).map((listed) => listed.id)).not.toContain(channel.id);
    await expect(channelDeliveries(readStore, tenant.orgId, channel.id, new Date())).rejects.toMatchObject({ code: 'not_found' });
  });

  it("does not let the dashboard's commands touch a webhook, nor the API touch an e-mail channel, nor another organization either", async () => {
    const webhook = await service.request('POST', '/api/v1/webhooks', { token: tenant.token, body: { url: 'https://hooks.example.com/pss' } });
    await expect(send(COMMANDS.emailChannelUpdate, { id: webhook.body.id, input: { name: 'x' } })).rejects.toMatchObject({ code: 'not_found', message: 'E-mail channel not found' });

    const channel = await create({});
    expect((await service.request('DELETE', `/api/v1/webhooks/${channel.id}`, { token: tenant.token })).status).toBe(404);
    const other = await service.createOrganization({ name: 'Other Shop' });
    await expect(bus.request(COMMANDS.emailChannelDelete, { orgId: other.id, id: channel.id }, actor)).rejects.toMatchObject({ code: 'not_found' });
    await expect(channelDeliveries(readStore, other.id, channel.id, new Date())).rejects.toMatchObject({ code: 'not_found' });
    expect((await listEmailChannels(readStore, other.id)).map((listed) => listed.id)).not.toContain(channel.id);
  });

  it('keeps refusing e-mail channels through the API, as the spec says', async () => {
    const answer = await service.request('POST', '/api/v1/webhooks', { token: tenant.token, body: { url: 'mailto:a@shop.example' } });
    expect(answer.status).toBe(400);
  });
});
