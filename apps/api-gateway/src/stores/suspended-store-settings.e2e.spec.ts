import { ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:read', 'stores:write', 'webhooks:manage', 'reports:read', 'reports:generate', 'policies:read', 'policies:write'];
const SUSPENDED = { code: 'conflict', message: 'Store is suspended; it can be read but not changed' };

/** A suspended store is read-only: so are the webhooks, report schedule and policies scoped to it; it holds its domain no more (issue 29, items 9a and 9d). */
describe('settings of a suspended store (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  const call = (method: string, url: string, body?: unknown) => suite.service.request(method, `/api/v1${url}`, { token: suite.token, body });
  const suspend = async (storeId: string) => expect((await call('DELETE', `/stores/${storeId}`)).status).toBe(200);
  const refused = (answer: { status: number; body: any }) => {
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject(SUSPENDED);
  };

  it('refuses a new webhook, report schedule or policy for a suspended store', async () => {
    const store = await suite.newStore();
    await suspend(store.id);
    refused(await call('POST', '/webhooks', { url: 'https://hooks.example.com/pss', store_id: store.id }));
    refused(await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' }));
    refused(await call('POST', '/policies', { store_id: store.id, name: 'Store policy', action: 'needs_review' }));
    expect((await call('GET', '/webhooks')).body.data.filter((w: any) => w.store_id === store.id)).toEqual([]);
    expect((await call('GET', `/reports/pci/schedule?store_id=${store.id}`)).body).toEqual({ data: [] });
    expect((await call('GET', `/policies?store_id=${store.id}`)).body.data.filter((p: any) => p.store_id === store.id)).toEqual([]);
  });

  it('refuses changing what was set before the suspension, lets it be read and deleted, and leaves the other stores\' alone', async () => {
    const store = await suite.newStore();
    const active = await suite.newStore();
    const webhook = (await call('POST', '/webhooks', { url: 'https://hooks.example.com/pss', store_id: store.id })).body;
    const policy = (await call('POST', '/policies', { store_id: store.id, name: 'Store policy', action: 'needs_review' })).body;
    const schedule = (await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'weekly' })).body;
    const orgWide = (await call('POST', '/policies', { name: 'Org policy', action: 'needs_review' })).body;
    await suspend(store.id);

    refused(await call('PATCH', `/webhooks/${webhook.id}`, { active: false }));
    refused(await call('PATCH', `/policies/${policy.id}`, { name: 'Renamed' }));
    refused(await call('POST', '/reports/pci/schedule', { store_id: store.id, cadence: 'monthly' }));
    expect((await call('GET', `/webhooks/${webhook.id}`)).body).toMatchObject({ active: true });
    expect((await call('GET', `/policies?store_id=${store.id}`)).body.data).toContainEqual(policy);
    expect((await call('GET', `/reports/pci/schedule?store_id=${store.id}`)).body.data).toEqual([schedule]);

    expect((await call('PATCH', `/policies/${orgWide.id}`, { name: 'Org policy, renamed' })).status).toBe(200);
    expect((await call('POST', '/reports/pci/schedule', { store_id: active.id, cadence: 'weekly' })).status).toBe(200);
    expect((await call('DELETE', `/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await call('DELETE', `/policies/${policy.id}`)).status).toBe(200);
    expect((await call('DELETE', `/reports/pci/schedule?store_id=${store.id}`)).status).toBe(200);
  });

  // A verified domain is released too: domain-verification.e2e.spec.ts.
  it('releases its domain claim: the organization may claim the domain again, and suspending again takes nothing back', async () => {
    const suspended = await suite.newStore();
    const claim = () => suite.service.request('POST', '/api/v1/stores', { token: suite.token, body: { domain: suspended.domain } });
    const refused = await claim();
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'conflict', message: `A store with the domain ${suspended.domain} already exists` });
    await suspend(suspended.id);
    const again = await claim();
    expect(again.status).toBe(201);
    await suspend(suspended.id);
    expect((await claim()).status).toBe(409);
    expect((await suite.service.request('GET', `/api/v1/stores/${again.body.id}`, { token: suite.token })).body).toMatchObject({ domain: suspended.domain, status: 'active' });
  });

  it('answers 404, not 409, for another organization\'s suspended store', async () => {
    const store = await suite.newStore();
    await suspend(store.id);
    const other = await suite.service.tenant(SCOPES, { plan: 'enterprise' });
    const answer = await suite.service.request('POST', '/api/v1/webhooks', { token: other.token, body: { url: 'https://hooks.example.com/pss', store_id: store.id } });
    expect(answer.status).toBe(404);
  });
});
