import type { ConnectionObservation } from '@pss/contracts';
import { EDGE_CONNECTIONS_FRESH_MS, EdgeConnections } from './edge-connections';

const psp: ConnectionObservation = { kind: 'connection', origin: 'https://api.psp.example', via: 'fetch', initiator: 'https://js.psp.example/v3.js' };

describe('edge connections', () => {
  it("settles a page's connection forwarded lately, by path, way and initiator, until it is due again", () => {
    const edge = new EdgeConnections();
    edge.remember('s1', 'https://shop.example/checkout?order=1', psp, 0);
    expect(edge.fresh('s1', 'https://shop.example/checkout?order=2', psp, EDGE_CONNECTIONS_FRESH_MS - 1)).toBe(true);
    expect(edge.fresh('s1', 'https://shop.example/checkout', psp, EDGE_CONNECTIONS_FRESH_MS)).toBe(false);
    expect(edge.fresh('s1', 'https://shop.example/pay', psp, 1)).toBe(false);
    expect(edge.fresh('s1', 'https://shop.example/checkout', { ...psp, via: 'beacon' }, 1)).toBe(false);
    expect(edge.fresh('s1', 'https://shop.example/checkout', { ...psp, initiator: 'https://evil.example/s.js' }, 1)).toBe(false);
    expect(edge.fresh('s2', 'https://shop.example/checkout', psp, 1)).toBe(false);
  });
});
