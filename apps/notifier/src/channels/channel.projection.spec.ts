import { CHANNELS } from '@pss/contracts';
import { expectReplayedTwice, recorded, replayedTwice, storedEventsOf } from '@pss/testkit';
import type { DeliveryEvent } from '../delivery/delivery.events';
import type { ChannelEvent } from './channel.events';
import { ChannelProjection } from './channel.projection';

const stored = storedEventsOf<ChannelEvent>('channel');

const created = (channelId: string, name: string, createdAt: string) =>
  stored(channelId, 'ChannelCreated', {
    channelId,
    orgId: 'o1',
    storeId: null,
    type: 'webhook',
    format: 'json',
    name,
    url: 'https://hooks.example/pss',
    events: ['alert.created'],
    minSeverity: 'medium',
    active: true,
    secret: null,
    recipients: null,
    createdAt,
  });

const delivered = (deliveryId: string, channelId: string, at: string) => {
  const data: Extract<DeliveryEvent, { type: 'DeliverySucceeded' }>['data'] = { deliveryId, channelId, attempt: 1, status: 204, at };
  return recorded(`delivery-${deliveryId}`, 'DeliverySucceeded', data);
};

/** Every channel event and successful delivery handled twice in a row, then the whole log again: the same channels as once. */
describe('ChannelProjection replayed twice', () => {
  it('shows a channel as last changed, never its secret, last used at its latest delivery', async () => {
    const events = [
      created('c1', 'Ops', 'T1'),
      stored('c1', 'ChannelUpdated', { channelId: 'c1', changes: { minSeverity: 'high', events: null }, secret: 'sealed:v1:abc', updatedAt: 'T2' }),
      delivered('d2', 'c1', 'T4'),
      // A delivery that settled later but finished earlier does not move last_used_at back.
      delivered('d1', 'c1', 'T3'),
      stored('c1', 'ChannelUpdated', { channelId: 'c1', changes: { name: 'Ops on call', active: false }, updatedAt: 'T5' }),
    ];
    const twice = await replayedTwice(ChannelProjection, events);
    expect(twice[CHANNELS]).toEqual([
      expect.objectContaining({
        _id: 'c1',
        org_id: 'o1',
        store_id: null,
        type: 'webhook',
        format: 'json',
        name: 'Ops on call',
        url: 'https://hooks.example/pss',
        has_secret: true,
        events: null,
        min_severity: 'high',
        active: false,
        last_used_at: 'T4',
        created_at: 'T1',
        updated_at: 'T5',
      }),
    ]);
    expect(JSON.stringify(twice[CHANNELS])).not.toContain('sealed:');
  });

  it('removes a deleted channel, and a replayed deletion does not remove the channel created again since', async () => {
    const events = [
      created('c1', 'First', 'T1'),
      created('c2', 'Gone', 'T1'),
      stored('c1', 'ChannelDeleted', { channelId: 'c1', deletedAt: 'T2' }),
      stored('c2', 'ChannelDeleted', { channelId: 'c2', deletedAt: 'T2' }),
      // A delivery that settles after its channel was deleted brings nothing back.
      delivered('d1', 'c2', 'T3'),
      created('c1', 'Again', 'T4'),
    ];
    await expectReplayedTwice(ChannelProjection, events, CHANNELS, [{ _id: 'c1', name: 'Again', created_at: 'T4', last_used_at: null }]);
  });
});
