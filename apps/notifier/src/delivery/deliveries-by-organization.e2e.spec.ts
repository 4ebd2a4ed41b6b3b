import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, type ChannelResource } from '@pss/contracts';
import { channelDeliveries, recentDeliveries } from '@pss/dashboard-reads';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';

/**
 * Issue 31 review: a channel's delivery history is its organization's, whichever path reads it: the dashboard's
 * page (`channelDeliveries`), the query under it and the operator's `deliveries list`.
 */
describe('deliveries, per organization (embedded)', () => {
  const actor = { actor: 'user:owner@shop.example' };
  let service: EmbeddedHarness;
  let bus: Bus;
  let readStore: ReadStore;
  let owner: string;
  let other: string;
  let channel: ChannelResource;

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    bus = service.app.get<Bus>(BUS);
    readStore = service.app.get(READ_STORE);
    [owner, other] = [(await service.createOrganization()).id, (await service.createOrganization({ name: 'Other Shop' })).id];
    channel = await bus.request<ChannelResource>(COMMANDS.emailChannelCreate, { orgId: owner, input: { name: 'Security', recipients: ['sec@shop.example'] } }, actor);
    await bus.request(COMMANDS.emailChannelTest, { orgId: owner, id: channel.id, input: undefined }, actor);
  });
  afterAll(() => service?.close());

  const listed = (org: string | undefined) => service.ops('deliveries.list', { ...(org ? { org } : {}), channel: channel.id });

  it("shows the channel's own organization its test delivery, on the page and to the operator", async () => {
    expect((await channelDeliveries(readStore, owner, channel.id, new Date())).map((row) => row.event_type)).toEqual(['test']);
    expect((await listed(owner)).data).toEqual([expect.objectContaining({ org_id: owner, channel_id: channel.id, event_type: 'test', status: 'delivered' })]);
  });

  it('shows another organization none of them, through each path', async () => {
    await expect(channelDeliveries(readStore, other, channel.id, new Date())).rejects.toMatchObject({ code: 'not_found', message: 'Channel not found' });
    expect(await recentDeliveries(readStore, other, channel.id, new Date())).toEqual([]);
    await expect(listed(other)).rejects.toMatchObject({ code: 'not_found', message: 'Channel not found' });
  });

  it('asks the operator whose history they read', async () => {
    await expect(listed(undefined)).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'org', message: '--org is required' }] });
  });

  it("still shows the operator a deleted channel's history, its organization named", async () => {
    await bus.request(COMMANDS.emailChannelDelete, { orgId: owner, id: channel.id, input: undefined }, actor);
    await expect(channelDeliveries(readStore, owner, channel.id, new Date())).rejects.toMatchObject({ code: 'not_found' });
    expect((await listed(owner)).data).toHaveLength(1);
  });
});
