import { sri } from '@pss/testkit';
import { EDGE_SCRIPT_FRESH_MS, EDGE_SCRIPTS_CACHED, EdgeScripts } from './edge-scripts';
import { EdgeHeaders, EDGE_HEADERS_FRESH_MS } from './edge-headers';

describe('EdgeScripts', () => {
  const script = (src: string, content = 'v1') => ({ kind: 'script' as const, inline: false, src, hash: sri(content) });

  it('knows a script only with the hash inventory settled, per store', () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js', 'v2'), 1)).toEqual({ kind: 'unknown' });
    expect(edge.of('store-2').verdict(script('https://cdn.example/app.js'), 1)).toEqual({ kind: 'unknown' });
  });

  it('treats a query or fragment as the same script, as inventory does', () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js?v=1'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js?v=2#x'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
  });

  it("holds other spellings of one URL as one script, by inventory's script key", () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict(script('https://CDN.Example:443/app.js'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
    expect(edge.of('store-1').verdict(script('https://cdn.example/lib/../app.js'), 1)).toEqual({ kind: 'known', scriptId: 'script-a' });
  });

  it('matches an unhashed sighting to whatever hash is on record', () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict({ kind: 'script', inline: false, src: 'https://cdn.example/app.js' }, 1).kind).toBe('known');
  });

  it('sends a refusal by the browser, or its end, on to inventory even with the hash on record', () => {
    const edge = new EdgeScripts();
    const refused = { ...script('https://cdn.example/app.js'), refused_integrity: sri('pinned') };
    edge.of('store-1').remember(script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict(refused, 1)).toEqual({ kind: 'unknown' });
    edge.of('store-1').remember(refused, 'script-a', sri('v1'), 1);
    expect(edge.of('store-1').verdict(refused, 2)).toEqual({ kind: 'known', scriptId: 'script-a' });
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js'), 2)).toEqual({ kind: 'unknown' });
  });

  it('settles no sighting of a script holding a mismatch, whatever its hash: inventory counts each one', () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js', 'v2'), 'script-a', sri('v2'), 0, true);
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js', 'v2'), 1)).toEqual({ kind: 'stale' });
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js', 'v1'), 1)).toEqual({ kind: 'stale' });
    edge.of('store-1').remember(script('https://cdn.example/app.js', 'v1'), 'script-a', sri('v1'), 2);
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js', 'v1'), 3)).toEqual({ kind: 'known', scriptId: 'script-a' });
  });

  it('says stale, not known, once the entry is older than its freshness', () => {
    const edge = new EdgeScripts();
    edge.of('store-1').remember(script('https://cdn.example/app.js'), 'script-a', sri('v1'), 0);
    expect(edge.of('store-1').verdict(script('https://cdn.example/app.js'), EDGE_SCRIPT_FRESH_MS + 1)).toEqual({ kind: 'stale' });
  });

  it('holds at most EDGE_SCRIPTS_CACHED scripts, forgetting the least recently active stores first', () => {
    const edge = new EdgeScripts();
    const perStore = 1_000;
    for (let store = 0; store <= EDGE_SCRIPTS_CACHED / perStore; store += 1) {
      const scripts = edge.of(`store-${store}`);
      for (let n = 0; n < perStore; n += 1) scripts.remember(script(`https://cdn.example/${n}.js`), `script-${n}`, sri('v1'), 0);
      if (store === 1) edge.of('store-0'); // store-0 is active again: store-1 is now the least recent
    }
    expect(edge.size).toBe(EDGE_SCRIPTS_CACHED);
    expect(edge.of('store-0').verdict(script('https://cdn.example/1.js'), 1).kind).toBe('known');
    expect(edge.of('store-1').verdict(script('https://cdn.example/1.js'), 1).kind).toBe('unknown');
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
