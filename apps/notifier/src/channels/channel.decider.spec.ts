import { deciderSpec } from '@pss/testkit';
import { channelDecider } from './channel.decider';
import type { Channel, ChannelEvent } from './channel.events';

const at = new Date('2026-05-04T10:00:00.000Z');
const later = new Date('2026-05-04T11:00:00.000Z');
const channel: Channel = {
  channelId: 'c1',
  orgId: 'o1',
  storeId: null,
  type: 'webhook',
  format: 'json',
  name: 'Ops',
  url: 'https://hooks.example.com/pss',
  events: null,
  minSeverity: 'high',
  active: true,
  secret: 'v1.sealed',
  recipients: null,
};
const created: ChannelEvent = { type: 'ChannelCreated', data: { ...channel, createdAt: at.toISOString() } };
const deleted: ChannelEvent = { type: 'ChannelDeleted', data: { channelId: 'c1', deletedAt: later.toISOString() } };
const spec = deciderSpec(channelDecider);

describe('channel decider', () => {
  it('creates a channel once: a second creation (an e-mail channel heard of twice) changes nothing', () => {
    spec.given([]).when({ type: 'CreateChannel', channel, at }).then([created]);
    spec.given([created]).when({ type: 'CreateChannel', channel: { ...channel, name: 'Other' }, at }).thenNothingHappens();
  });

  it('records only the settings that change, and a rotated secret whatever it is', () => {
    const update = (changes: object, secret?: string) => spec.given([created]).when({ type: 'UpdateChannel', orgId: 'o1', changes, secret, at: later });
    update({ name: 'Ops', events: null, minSeverity: 'high', url: undefined }).thenNothingHappens();
    update({ name: 'Alerts', events: ['alert.created'], active: false }).then([
      { type: 'ChannelUpdated', data: { channelId: 'c1', changes: { name: 'Alerts', events: ['alert.created'], active: false }, updatedAt: later.toISOString() } },
    ]);
    update({}, 'v1.rotated').then([{ type: 'ChannelUpdated', data: { channelId: 'c1', changes: {}, secret: 'v1.rotated', updatedAt: later.toISOString() } }]);
  });

  it('keeps the rotated secret in its state', () => {
    const rotated: ChannelEvent = { type: 'ChannelUpdated', data: { channelId: 'c1', changes: { active: false }, secret: 'v1.rotated', updatedAt: later.toISOString() } };
    const state = [created, rotated].reduce(channelDecider.evolve, channelDecider.initialState());
    expect(state.channel).toMatchObject({ secret: 'v1.rotated', active: false, name: 'Ops' });
  });

  it('deletes a channel once', () => {
    spec.given([created]).when({ type: 'DeleteChannel', orgId: 'o1', at: later }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteChannel', orgId: 'o1', at: later }).thenThrows('not_found');
  });

  it("does not find another organization's channel, a deleted one or an e-mail channel for the API", () => {
    const email: ChannelEvent = { type: 'ChannelCreated', data: { ...channel, type: 'email', format: null, url: null, secret: null, recipients: ['o@acme.example'], createdAt: at.toISOString() } };
    spec.given([]).when({ type: 'UpdateChannel', orgId: 'o1', changes: { name: 'x' }, at }).thenThrows('not_found', /Webhook not found/);
    spec.given([created]).when({ type: 'UpdateChannel', orgId: 'o2', changes: { name: 'x' }, at }).thenThrows('not_found');
    spec.given([created, deleted]).when({ type: 'UpdateChannel', orgId: 'o1', changes: { name: 'x' }, at }).thenThrows('not_found');
    spec.given([email]).when({ type: 'DeleteChannel', orgId: 'o1', at }).thenThrows('not_found');
  });

  it('lets the dashboard change and delete its e-mail channels, and find no webhook', () => {
    const email: ChannelEvent = { type: 'ChannelCreated', data: { ...channel, type: 'email', format: null, url: null, secret: null, recipients: ['o@acme.example'], createdAt: at.toISOString() } };
    const changes = { recipients: ['o@acme.example', 'p@acme.example'] };
    spec.given([email]).when({ type: 'UpdateChannel', orgId: 'o1', changes, at: later, managedBy: 'dashboard' }).then([
      { type: 'ChannelUpdated', data: { channelId: 'c1', changes, updatedAt: later.toISOString() } },
    ]);
    spec.given([email]).when({ type: 'DeleteChannel', orgId: 'o1', at: later, managedBy: 'dashboard' }).then([deleted]);
    spec.given([created]).when({ type: 'DeleteChannel', orgId: 'o1', at: later, managedBy: 'dashboard' }).thenThrows('not_found', /E-mail channel not found/);
  });

  it("deactivates a suspended store's channel once, and nothing that is missing or deleted", () => {
    const deactivated: ChannelEvent = { type: 'ChannelUpdated', data: { channelId: 'c1', changes: { active: false }, updatedAt: later.toISOString() } };
    spec.given([created]).when({ type: 'DeactivateChannel', at: later }).then([deactivated]);
    spec.given([created, deactivated]).when({ type: 'DeactivateChannel', at: later }).thenNothingHappens();
    spec.given([]).when({ type: 'DeactivateChannel', at: later }).thenNothingHappens();
    spec.given([created, deleted]).when({ type: 'DeactivateChannel', at: later }).thenNothingHappens();
  });
});
