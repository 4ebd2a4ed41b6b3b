import { sri } from '@pss/testkit';
import { EDGE_SCRIPT_FRESH_MS, EdgeScripts } from './edge-scripts';
import { EdgeHeaders, EDGE_HEADERS_FRESH_MS } from './edge-headers';

describe('EdgeScripts', () => {
  const script = (src: string, content = 'v1') => ({ kind: 'script' as const, inline: false, src, hash: sri(content) });

  it('knows a script only with the hash inventory settled, per store', () => {
    const edge = new EdgeScripts();
    edge.remember('store-1', script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.verdict('store-1', script('https://cdn.example/app.js'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
    expect(edge.verdict('store-1', script('https://cdn.example/app.js', 'v2'), 1)).toEqual({ kind: 'unknown' });
    expect(edge.verdict('store-2', script('https://cdn.example/app.js'), 1)).toEqual({ kind: 'unknown' });
  });

  it('treats a query or fragment as the same script, as inventory does', () => {
    const edge = new EdgeScripts();
    edge.remember('store-1', script('https://cdn.example/app.js?v=1'), 'script-a', sri('v1'), 0);
    expect(edge.verdict('store-1', script('https://cdn.example/app.js?v=2#x'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
  });

  it('matches an unhashed sighting to whatever hash is on record', () => {
    const edge = new EdgeScripts();
    edge.remember('store-1', script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.verdict('store-1', { kind: 'script', inline: false, src: 'https://cdn.example/app.js' }, 1).kind).toBe('known');
  });

  it('says stale, not known, once the entry is older than its freshness', () => {
    const edge = new EdgeScripts();
    edge.remember('store-1', script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.verdict('store-1', script('https://cdn.example/app.js'), EDGE_SCRIPT_FRESH_MS + 1)).toEqual({ kind: 'stale' });
  });
});

describe('EdgeHeaders', () => {
  const headers = { 'x-frame-options': 'DENY' };

  it('knows the headers last recorded for the page path, while fresh', () => {
    const edge = new EdgeHeaders();
    edge.remember('store-1', 'https://shop.example/checkout?step=1', headers, 0);
    expect(edge.unchanged('store-1', 'https://shop.example/checkout?step=2', headers, 1)).toBe(true);
    expect(edge.unchanged('store-1', 'https://shop.example/checkout', { 'x-frame-options': 'SAMEORIGIN' }, 1)).toBe(false);
    expect(edge.unchanged('store-1', 'https://shop.example/cart', headers, 1)).toBe(false);
    expect(edge.unchanged('store-1', 'https://shop.example/checkout', headers, EDGE_HEADERS_FRESH_MS + 1)).toBe(false);
  });
});
