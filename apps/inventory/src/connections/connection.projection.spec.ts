import { CONNECTIONS } from '@pss/contracts';
import { expectReplayedTwice, recorded } from '@pss/testkit';
import type { ConnectionEvent, ConnectionSighting } from './connection.events';
import { ConnectionProjection } from './connection.projection';

const sighting = (change: Partial<ConnectionSighting>): ConnectionSighting => ({
  connectionId: 'c1',
  storeId: 's1',
  orgId: 'o1',
  origin: 'https://api.psp.example',
  via: 'fetch',
  page: null,
  initiator: null,
  at: '2026-06-01T10:00:00.000Z',
  ...change,
});
const detected = (change: Partial<ConnectionSighting>) => {
  const data: Extract<ConnectionEvent, { type: 'ConnectionDetected' }>['data'] = { ...sighting(change), pageUrl: 'https://shop.example/checkout', sessionId: 'x', afterUnauthorizedRead: null };
  return recorded('connection-c1', 'ConnectionDetected', data);
};
const seen = (change: Partial<ConnectionSighting>) => recorded('connection-c1', 'ConnectionSeen', sighting(change));

/** Every event handled twice in a row, then the whole log again. */
describe('ConnectionProjection replayed twice', () => {
  it('keeps each origin with its ways, pages and initiators in the order first seen, first and last seen', async () => {
    const psp = { scriptId: 'sc-psp', src: 'https://js.psp.example/v3.js' };
    const events = [
      detected({ page: '/checkout', initiator: psp }),
      seen({ via: 'beacon', page: '/pay', at: '2026-06-01T11:00:00.000Z' }),
      seen({ at: '2026-06-02T09:00:00.000Z' }),
    ];
    await expectReplayedTwice(ConnectionProjection, events, CONNECTIONS, [
      {
        _id: 'c1',
        org_id: 'o1',
        store_id: 's1',
        origin: 'https://api.psp.example',
        via: ['fetch', 'beacon'],
        pages: ['/checkout', '/pay'],
        initiators: [{ script_id: 'sc-psp', src: 'https://js.psp.example/v3.js' }],
        first_seen_at: '2026-06-01T10:00:00.000Z',
        last_seen_at: '2026-06-02T09:00:00.000Z',
      },
    ]);
  });

  it('has empty lists of pages and initiators, not none, until a sighting adds one', async () => {
    await expectReplayedTwice(ConnectionProjection, [detected({})], CONNECTIONS, [{ _id: 'c1', via: ['fetch'], pages: [], initiators: [] }]);
  });
});
