import { sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';


const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review'];
const SHARED = 'cdn.shared-host.example';

/** A checkout whose authorized jQuery and an unknown pixel come from the same public CDN. */
const checkout = [
  { kind: 'script', src: `https://${SHARED}/jquery/3.7.1/jquery.min.js?v=2`, hash: sri('jquery') },
  { kind: 'script', src: `https://${SHARED}/pixel.js`, hash: sri('pixel') },
  { kind: 'script', src: `https://${SHARED}/tracker.js`, hash: sri('tracker') },
  { kind: 'script', src: `https://img.${SHARED}/beacon.js`, hash: sri('beacon') },
  { kind: 'script', src: 'https://other-cdn.example/lib.js', hash: sri('other') },
  { kind: 'script', inline: true, hash: sri('window.dataLayer = [];') },
];

describe('POST /scripts/{id}/block on a shared host (HTTP, embedded)', () => {
  const suite = embeddedSuite({ scopes: SCOPES });

  async function shop() {
    const store = await suite.newStore({ mode: 'block' });
    expect((await suite.service.reportSdk(store.sdk_key, checkout)).status).toBe(202);
    const list: any[] = (await suite.get(`/scripts?store_id=${store.id}`)).body.data;
    const find = (fragment: string) => list.find((script) => script.src.includes(fragment));
    const scripts = { jquery: find('jquery'), pixel: find('pixel'), tracker: find('tracker'), beacon: find('beacon'), other: find('other-cdn'), inline: find('inline:') };
    const authorized = await suite.call('POST', `/scripts/${scripts.jquery.id}/authorize`, { justification: 'Checkout needs jQuery' });
    expect(authorized.body.status).toBe('authorized');
    return { store, scripts };
  }
  const block = (id: string, body: Record<string, unknown> = {}) => suite.call('POST', `/scripts/${id}/block`, body);
  const pageConfig = async (key: string) => (await suite.service.request('GET', `/sdk/v1/config?key=${key}`)).body;
  const reached = (script: any) => ({ id: script.id, src: script.src, status: script.status });

  it("blocks by domain (the spec's default), says which other scripts of the host it stops, and spares the authorized one", async () => {
    const { store, scripts } = await shop();
    const blocked = await block(scripts.pixel.id, { justification: 'Unknown pixel' });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ id: scripts.pixel.id, status: 'blocked', rule: { type: 'block', target: 'domain', value: SHARED, active: true } });
    // a domain rule covers the host's subdomains too; the other CDN and the inline script are not its business
    expect(blocked.body.also_blocks).toEqual(expect.arrayContaining([reached(scripts.tracker), reached(scripts.beacon)]));
    expect(blocked.body.also_blocks).toHaveLength(2);
    expect(blocked.body.spared).toEqual([{ id: scripts.jquery.id, src: scripts.jquery.src, status: 'authorized' }]);

    // the SDK is told the authorized URL (no query: a visitor's data may be there), an allow before the host's block
    const config = await pageConfig(store.sdk_key);
    expect(config.rules.block).toEqual([{ id: blocked.body.rule.id, target: 'domain', value: SHARED }]);
    expect(config.authorized_urls).toEqual([`https://${SHARED}/jquery/3.7.1/jquery.min.js`]);
    // and the keyed sdk.js carries them, for the first decisions of a page view
    expect((await suite.service.request('GET', `/sdk/v1/sdk.js?key=${store.sdk_key}`)).text).toContain(`"authorized_urls":["https://${SHARED}/jquery/3.7.1/jquery.min.js"]`);

    // blocking the authorized script itself takes its URL out of the allows
    await block(scripts.jquery.id);
    expect((await pageConfig(store.sdk_key)).authorized_urls).toEqual([]);
  });

  it('blocks by URL when asked: this script alone, lifted again when it is authorized', async () => {
    const { store, scripts } = await shop();
    const blocked = await block(scripts.pixel.id, { by: 'url' });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ status: 'blocked', rule: { type: 'block', target: 'url', value: `https://${SHARED}/pixel.js` }, also_blocks: [], spared: [] });
    expect((await pageConfig(store.sdk_key)).rules.block).toEqual([{ id: blocked.body.rule.id, target: 'url', value: `https://${SHARED}/pixel.js` }]);

    await suite.call('POST', `/scripts/${scripts.pixel.id}/authorize`, { justification: 'Ours after all' });
    const rules: any[] = (await suite.get(`/rules?store_id=${store.id}&type=block`)).body.data;
    expect(rules.find((rule) => rule.id === blocked.body.rule.id)).toMatchObject({ active: false });
    expect((await pageConfig(store.sdk_key)).rules.block).toEqual([]);

    // an explicit by: domain is the default's rule
    expect((await block(scripts.other.id, { by: 'domain' })).body.rule).toMatchObject({ target: 'domain', value: 'other-cdn.example' });
  });

  it('refuses an unknown by, and any by for an inline script, with a 400 that says why', async () => {
    const { scripts } = await shop();
    const unknown = await block(scripts.pixel.id, { by: 'host' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'by', message: "by must be 'domain' (the script's host, the default) or 'url' (this script alone)" }] });
    const inline = await block(scripts.inline.id, { by: 'url' });
    expect(inline.status).toBe(400);
    expect(inline.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'by', message: 'an inline script is blocked by its content hash: leave by out' }] });
    // refused before anything changed
    const pixel = (await suite.get(`/scripts/${scripts.pixel.id}`)).body;
    expect(pixel.status).not.toBe('blocked');
    const hashBlocked = await block(scripts.inline.id);
    expect(hashBlocked.body).toMatchObject({ rule: { target: 'hash' }, also_blocks: [], spared: [] });
  });
});
