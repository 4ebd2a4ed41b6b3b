import { auditLogCollection } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { recorded, replayedTwice } from '@pss/testkit';
import { NotifierAuditLogProjection } from './notifier-audit-log.projection';

const OWNER = 'user:owner@shop.example';
const by = (event: RecordedEvent): RecordedEvent => ({ ...event, metadata: { actor: OWNER, orgId: 'o1' } });

describe('NotifierAuditLogProjection replayed twice', () => {
  it('records channels created, changed (which fields, never a secret or an address) and deleted', async () => {
    const channel = { channelId: 'c1', orgId: 'o1', storeId: null, type: 'email', format: null, secret: null, url: null, name: 'Security team', events: ['alert.created'], minSeverity: 'low', active: true, recipients: ['sec@shop.example'] };
    const events = [
      by(recorded('channel-c1', 'ChannelCreated', { ...channel, createdAt: 'T1' })),
      by(recorded('channel-c1', 'ChannelUpdated', { channelId: 'c1', changes: { recipients: ['new@shop.example'], name: 'SecOps' }, secret: 'sealed', updatedAt: 'T2' })),
      by(recorded('channel-c1', 'ChannelDeleted', { channelId: 'c1', deletedAt: 'T3' })),
    ];
    const entries = (await replayedTwice(NotifierAuditLogProjection, events))[auditLogCollection('notifier')];

    expect(entries.map(({ action, target, details }) => ({ action, target, details }))).toEqual([
      { action: 'channel.created', target: { type: 'channel', id: 'c1', label: 'Security team' }, details: { type: 'email', store_id: null, events: ['alert.created'] } },
      { action: 'channel.updated', target: { type: 'channel', id: 'c1', label: 'SecOps' }, details: { changed: ['recipients', 'name', 'secret'] } },
      { action: 'channel.deleted', target: { type: 'channel', id: 'c1', label: 'SecOps' }, details: {} },
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/sealed|new@shop/);
  });
});
