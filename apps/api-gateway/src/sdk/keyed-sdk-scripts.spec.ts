import { runInNewContext } from 'node:vm';
import type { StoreDocument } from '@pss/contracts';
import type { Frozen } from '@pss/read-store';
import { ManualClock } from '@pss/testkit';
import { urlTag } from '@pss/sdk-contract';
import { KeyedSdkScripts, withPageConfig } from './keyed-sdk-scripts';
import type { SdkRelease } from './sdk-bundle';
import type { PageConfig } from './sdk-config';

const config = (sensitiveFields: string[]): PageConfig => ({
  paused: false,
  config: {
    mode: 'monitor',
    calibration_seconds: 60,
    overlay_check_interval_ms: 2000,
    installation_order_policy: 'warn',
    payment_methods: ['pix'],
    sensitive_fields: sensitiveFields,
    expected_iframe_origins: [],
    allowed_service_workers: [],
    gtm_containers: [],
    developer_mode: false,
    release_channel: 'stable',
  },
  rules: { block: [{ id: 'rul_1', target: 'domain', value: 'evil.example' }], allow: [] },
  authorized_urls: ['https://evil.example/kept.js'],
});

/** A release whose code reports what it sees, built as esbuild builds the SDK (a strict IIFE). */
const probe: SdkRelease = {
  version: '1.0.0',
  iife: '"use strict";(()=>{globalThis.seen=typeof __pssConfig==="object"?__pssConfig:null;globalThis.strict=(function(){return this===undefined;})();})();\n',
  code: Buffer.alloc(0),
  gzip: Buffer.alloc(0),
  etag: '"1.0.0"',
  integrity: 'sha384-',
};

describe('the keyed sdk.js', () => {
  it("declares the store's config where the SDK looks for it, in strict mode, without a global", () => {
    const page = config(['#cc']);
    const context: Record<string, unknown> = {};
    runInNewContext(withPageConfig(probe, page), context);
    expect(context.seen).toEqual(page);
    expect(context.strict).toBe(true);
    expect('__pssConfig' in context).toBe(false);
  });

  it('keeps any selector a shop typed a value, never code', () => {
    const hostile = ['</script><script>alert(1)</script>', '"};globalThis.owned=1;({"', '\u2028\u2029', "`${globalThis.owned=1}`"];
    const context: Record<string, unknown> = {};
    const text = withPageConfig(probe, config(hostile));
    expect(text).not.toMatch(/[\u2028\u2029]/);
    runInNewContext(text, context);
    expect((context.seen as PageConfig).config.sensitive_fields).toEqual(hostile);
    expect(context.owned).toBeUndefined();
  });

  it('starts with the compile hint, the only place V8 reads it', () => {
    expect(withPageConfig(probe, config([])).split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
  });
});

describe('the keyed scripts kept in memory', () => {
  const built: string[] = [];
  const clock = new ManualClock();
  const bundle = { channel: () => probe };
  const configs = {
    forPage: async (store: Frozen<StoreDocument>) => {
      built.push(store._id);
      return config([]);
    },
    corsRefused: async () => [urlTag('https://cdn.example/no-cors.js')],
  };
  const store = (id: string) => ({ _id: id, sdk_config: { release_channel: 'stable' } }) as Frozen<StoreDocument>;

  it('carries the tags of the scripts not worth re-fetching, beside the config', async () => {
    const scripts = new KeyedSdkScripts(bundle, { ...configs, forPage: async () => config([]) }, new ManualClock());
    const context: Record<string, unknown> = {};
    runInNewContext((await scripts.of(store('tags'))).code.toString(), context);
    expect(context.seen).toEqual({ ...config([]), cors_refused: [urlTag('https://cdn.example/no-cors.js')] });
  });

  it("keeps a store's script until a change of the store, not for a while, and at most 1,000 stores", async () => {
    const scripts = new KeyedSdkScripts(bundle, configs, clock);
    const first = await scripts.of(store('a'));
    clock.advance(60_000); // far past the 10 s the gateway once rebuilt on: no change, no build
    expect(await scripts.of(store('a'))).toBe(first);
    expect(built).toEqual(['a']);
    scripts.changed('a');
    await scripts.of(store('a'));
    expect(built).toEqual(['a', 'a']);

    for (let i = 0; i < 1_000; i += 1) await scripts.of(store(`s${i}`));
    await scripts.of(store('s999')); // the newest is kept
    expect(built.filter((id) => id === 's999')).toHaveLength(1);
    await scripts.of(store('a')); // the oldest was evicted: built again
    expect(built.filter((id) => id === 'a')).toHaveLength(3);
  });

  it('does not keep what it builds in the second after a change, when the read model may still trail the fact', async () => {
    const builds: string[] = [];
    const scripts = new KeyedSdkScripts(bundle, { ...configs, forPage: async (s: Frozen<StoreDocument>) => (builds.push(s._id), config([])) }, clock);
    await scripts.of(store('b'));
    scripts.changed('b');
    await scripts.of(store('b'));
    await scripts.of(store('b'));
    expect(builds).toHaveLength(3);
    clock.advance(1_001);
    await scripts.of(store('b'));
    await scripts.of(store('b'));
    expect(builds).toHaveLength(4);
  });

  it('does not keep a script whose build a change overtook', async () => {
    let release!: () => void;
    const slow = { ...configs, forPage: () => new Promise<PageConfig>((resolve) => (release = () => resolve(config([])))) };
    const scripts = new KeyedSdkScripts(bundle, slow, new ManualClock());
    const building = scripts.of(store('c'));
    await Promise.resolve();
    scripts.changed('c');
    release();
    const overtaken = await building;
    const again = scripts.of(store('c'));
    await Promise.resolve();
    release();
    expect(await again).not.toBe(overtaken);
  });

  it('rebuilds after 5 minutes without a change, as browsers re-check it: the cors_refused hint has no fact of its own', async () => {
    const own = new ManualClock();
    const scripts = new KeyedSdkScripts(bundle, configs, own);
    const first = await scripts.of(store('d'));
    own.advance(299_000);
    expect(await scripts.of(store('d'))).toBe(first);
    own.advance(1_001);
    expect(await scripts.of(store('d'))).not.toBe(first);
  });
});
