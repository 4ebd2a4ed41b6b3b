import { randomUUID } from 'node:crypto';
import { BUS, type Bus } from '@pss/bus';
import type { IntegrationEvent } from '@pss/contracts';
import { AggregateRepository } from '@pss/platform';
import { eventually } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { channelDecider } from '../channels/channel.decider';
import { channelStream } from '../channels/channel.events';
import { ownerMailChannelId } from './owner-mail.consumer';

/** Inventory's announcements on three topics, which Kafka delivers in any order relative to each other. */
describe("Owner mail channel with a store's announcements out of order (embedded)", () => {
  let service: EmbeddedHarness;

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
  });

  afterAll(async () => {
    await service?.close();
  });

  const announce = (type: string, orgId: string, data: Record<string, unknown>): Promise<void> => {
    const event: IntegrationEvent = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type,
      version: 1,
      source: 'inventory',
      org_id: orgId,
      store_id: typeof data.store_id === 'string' ? data.store_id : null,
      occurred_at: '2026-06-01T12:00:00.000Z',
      correlation_id: null,
      position: 0,
      data,
    };
    return service.app.get<Bus>(BUS).publish(type, event);
  };

  it('makes the channel of a store whose suspension came before its creation inactive', async () => {
    const orgId = randomUUID();
    const storeId = randomUUID();

    await announce('inventory.store.suspended', orgId, { store_id: storeId });
    await announce('inventory.store.created', orgId, { store_id: storeId });
    await announce('inventory.organization.created', orgId, { org_id: orgId, owner_email: 'owner@acme.example' });

    const channel = async () =>
      (await service.app.get(AggregateRepository).load(channelStream(ownerMailChannelId(storeId)), channelDecider)).state.channel;
    await eventually(channel, (made) => made !== undefined);
    expect(await channel()).toMatchObject({ storeId, recipients: ['owner@acme.example'], active: false });
  });
});
