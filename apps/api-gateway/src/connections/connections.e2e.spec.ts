import { ProjectionRunner } from '@pss/projections';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/** GET /connections against the embedded service: what SDK batches report, scoped, filtered and validated. */
describe('connections (HTTP, embedded)', () => {
  const suite = embeddedSuite({ scopes: ['stores:read', 'stores:write', 'scripts:read', 'scripts:review'] });

  const report = async (key: string, domain: string, page: string, observations: unknown[]) => {
    const answer = await suite.service.reportSdk(key, observations, { page_url: `https://${domain}${page}` });
    expect(await suite.service.app.get(ProjectionRunner).catchUp()).toBe(true);
    return answer;
  };

  it("lists each origin a store's pages reached, with how, where and by which script, to the store's organization only", async () => {
    const store = await suite.newStore();
    const psp = 'https://js.psp.example/v3.js';
    await report(store.sdk_key, store.domain, '/checkout', [
      { kind: 'connection', origin: 'https://api.psp.example', via: 'fetch', initiator: psp },
      { kind: 'connection', origin: 'https://pixel.ads.example', via: 'image' },
    ]);
    await report(store.sdk_key, store.domain, '/pay', [{ kind: 'connection', origin: 'https://api.psp.example', via: 'beacon', initiator: psp }]);

    const listed = (await suite.get(`/connections?store_id=${store.id}`)).body;
    expect(listed.data).toHaveLength(2);
    const api = listed.data.find((connection: any) => connection.origin === 'https://api.psp.example');
    expect(api).toMatchObject({ store_id: store.id, via: ['fetch', 'beacon'], pages: ['/checkout', '/pay'], initiators: [{ script_id: expect.any(String), src: psp }] });
    expect(api.first_seen_at <= api.last_seen_at).toBe(true);

    const filtered = async (query: string) => (await suite.get(`/connections?store_id=${store.id}&${query}`)).body.data.map((connection: any) => connection.origin);
    expect(await filtered('via=image')).toEqual(['https://pixel.ads.example']);
    expect(await filtered('origin=https://api.psp.example')).toEqual(['https://api.psp.example']);
    expect(await filtered(`script_id=${api.initiators[0].script_id}`)).toEqual(['https://api.psp.example']);

    const stranger = await suite.service.tenant(['scripts:read']);
    expect((await suite.service.request('GET', '/api/v1/connections', { token: stranger.token })).body.data).toEqual([]);
    expect((await suite.service.request('GET', `/api/v1/connections?store_id=${store.id}`, { token: stranger.token })).status).toBe(404);
  });

  it("puts a destination in the store's CSP connect-src once a script that reaches it is authorized", async () => {
    const store = await suite.newStore();
    const psp = 'https://js.psp.example/v3.js';
    await report(store.sdk_key, store.domain, '/checkout', [
      { kind: 'script', src: psp },
      { kind: 'connection', origin: 'https://api.psp.example', via: 'fetch', initiator: psp },
    ]);
    const connectSrc = async () => /connect-src ([^;]*)/.exec((await suite.get(`/stores/${store.id}/csp`)).body.value)![1];
    expect(await connectSrc()).not.toContain('https://api.psp.example');
    const [connection] = (await suite.get(`/connections?store_id=${store.id}`)).body.data;
    const authorized = await suite.call('POST', `/scripts/${connection.initiators[0].script_id}/authorize`, { justification: 'The payment provider' });
    expect(authorized.body.status).toBe('authorized');
    expect(await connectSrc()).toContain('https://api.psp.example');
  });

  it('answers a bad filter with a 400 naming each field, and a token without scripts:read with 403', async () => {
    const bad = await suite.get('/connections?via=pigeon&origin=https://evil.example/4111&script_id=x');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'via', message: 'via must be one of fetch, xhr, beacon, image, form, websocket' },
        { field: 'origin', message: 'origin must be an http(s) or ws(s) origin as browsers write it (scheme://host[:port], lower case, no path), of at most 270 characters' },
        { field: 'script_id', message: 'script_id must be a UUID' },
      ]),
    );
    const reader = await suite.service.tenant(['stores:read']);
    expect((await suite.service.request('GET', '/api/v1/connections', { token: reader.token })).status).toBe(403);
  });

  it('rejects a connection whose origin carries a path, and takes the rest of the batch', async () => {
    const store = await suite.newStore();
    const answer = await report(store.sdk_key, store.domain, '/checkout', [
      { kind: 'connection', origin: 'https://evil.example/4111111111111111', via: 'fetch' },
      { kind: 'connection', origin: 'wss://live.chat.example', via: 'websocket' },
    ]);
    expect(answer.body).toMatchObject({ accepted: 1, rejected: 1, rejections: [{ index: 0, reason: expect.stringContaining('origin must be') }] });
    expect((await suite.get(`/connections?store_id=${store.id}`)).body.data.map((connection: any) => connection.origin)).toEqual(['wss://live.chat.example']);
  });
});
