import { MAX_CONNECTION_PAGES } from '@pss/contracts';
import { deciderSpec } from '@pss/testkit';
import { CONNECTION_SEEN_REFRESH_MS, connectionDecider, type ObserveConnection } from './connection.decider';
import type { ConnectionEvent, ConnectionSighting } from './connection.events';

const at = new Date('2026-06-01T10:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const skimmer = { scriptId: 'sc-1', src: 'https://cdn.evil.example/s.js' };
const connection = { connectionId: 'c1', storeId: 's1', orgId: 'o1', origin: 'https://exfil.example', via: 'fetch' } as const;
const observe = (change: Partial<ObserveConnection> = {}): ObserveConnection => ({
  ...connection,
  page: '/checkout',
  pageUrl: 'https://shop.example/checkout',
  sessionId: 'sess',
  initiator: skimmer,
  unauthorizedRead: null,
  at,
  ...change,
});
const sighting = (change: Partial<ConnectionSighting> = {}): ConnectionSighting => ({
  ...connection,
  page: '/checkout',
  initiator: skimmer,
  at: at.toISOString(),
  ...change,
});
const detected: ConnectionEvent = {
  type: 'ConnectionDetected',
  data: { ...sighting(), pageUrl: 'https://shop.example/checkout', sessionId: 'sess', afterUnauthorizedRead: null },
};
const spec = deciderSpec(connectionDecider);

describe('connection decider', () => {
  it('detects a destination on its first sighting, with the unauthorized read of its page view', () => {
    const read = { ...skimmer, field: 'card_number' };
    spec.given([]).when(observe({ unauthorizedRead: read })).then([{ type: 'ConnectionDetected', data: { ...detected.data, afterUnauthorizedRead: read } } as ConnectionEvent]);
  });

  it('records a new page, initiator or way of reaching it at once, and only those', () => {
    const library = { scriptId: 'sc-2', src: 'https://cdn.example/jquery.js' };
    spec.given([detected]).when(observe({ page: '/pay', at: later(1000) })).then([{ type: 'ConnectionSeen', data: sighting({ page: '/pay', initiator: null, at: later(1000).toISOString() }) }]);
    spec.given([detected]).when(observe({ initiator: library, at: later(1000) })).then([{ type: 'ConnectionSeen', data: sighting({ page: null, initiator: library, at: later(1000).toISOString() }) }]);
    spec.given([detected]).when(observe({ via: 'beacon', initiator: null, at: later(1000) })).then([{ type: 'ConnectionSeen', data: sighting({ via: 'beacon', page: null, initiator: null, at: later(1000).toISOString() }) }]);
  });

  it('moves the last-seen time of a sighting that adds nothing only every CONNECTION_SEEN_REFRESH_MS', () => {
    spec.given([detected]).when(observe({ at: later(CONNECTION_SEEN_REFRESH_MS - 1) })).thenNothingHappens();
    spec.given([detected]).when(observe({ at: later(CONNECTION_SEEN_REFRESH_MS) })).then([
      { type: 'ConnectionSeen', data: sighting({ page: null, initiator: null, at: later(CONNECTION_SEEN_REFRESH_MS).toISOString() }) },
    ]);
  });

  it('keeps at most MAX_CONNECTION_PAGES pages: a forged flood of paths refreshes the last-seen time at most', () => {
    const pages: ConnectionEvent[] = Array.from({ length: MAX_CONNECTION_PAGES - 1 }, (_, n) => ({ type: 'ConnectionSeen', data: sighting({ page: `/p/${n}`, initiator: null }) }));
    spec.given([detected, ...pages]).when(observe({ page: '/p/new', at: later(1000) })).thenNothingHappens();
  });
});
