import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { crashAfterAppends, ManualClock } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

/**
 * A create writes several streams one after the other (the command's claim, the resource, its reservations): a
 * process that dies between two of them must not refuse the customer forever (review D3). For every crash point,
 * the retry with the same Idempotency-Key, once the dead delivery's claim is abandoned, finishes the create.
 */
describe('a crash in the middle of a create (embedded)', () => {
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const suite = embeddedSuite({ clock });
  const UNAVAILABLE = 503;
  /** Past two command timeouts (BUS_REQUEST_TIMEOUT_MS, 10 s): no delivery of the claim can still be at work. */
  const ABANDONED = 21_000;

  /** The streams a create writes: the command's claim and reservations (`unique-`), and the resource's own. */
  const ORGANIZATION_CREATE = (stream: string) => /^(unique|org)-/.test(stream);
  const STORE_CREATE = (stream: string) => /^(unique|domain-claims|quota|store)-/.test(stream);

  const eventStore = () => suite.service.app.get<EventStore>(EVENT_STORE);
  const post = (path: string, token: string, body: unknown, key: string) =>
    suite.service.request('POST', `/api/v1${path}`, { token, body, headers: { 'idempotency-key': key } });

  /** The create dies after `appends` appends to its streams (503); once abandoned, the same key is sent again. */
  const crashThenRetry = async (path: string, token: string, body: unknown, appends: number, counted: (stream: string) => boolean) => {
    const key = `crash-${path}-${appends}-${Date.now()}`;
    const crash = crashAfterAppends(eventStore(), appends, counted);
    const during = await post(path, token, body, key);
    crash.restart();
    expect(during.status).toBe(UNAVAILABLE);
    clock.advance(ABANDONED);
    return post(path, token, body, key);
  };

  // The claim, OrganizationCreated, OwnerInvitationRecorded.
  it.each([1, 2, 3])('creates the organization once when the retry follows a crash after append %i', async (appends) => {
    const { token } = await suite.service.tenant(['orgs:manage']);
    const body = { name: `Acme ${appends}`, owner_email: `owner${appends}@crash.example` };
    const retry = await crashThenRetry('/organizations', token, body, appends, ORGANIZATION_CREATE);
    expect(retry.status).toBe(201);
    // Died between inviting the owner and recording it: the retry finds the owner's user the invitation made.
    expect(retry.body).toMatchObject({ name: body.name, owner_invite: expect.stringMatching(/^(sent|existing_user)$/) });
    const listed = (await suite.service.request('GET', '/api/v1/organizations', { token })).body.data;
    expect(listed.map((org: { id: string }) => org.id)).toEqual([retry.body.id]);
  });

  // The claim, the domain's reservation, the plan's slot, StoreCreated. One store on the plan: a slot the dead
  // create kept would show as plan_limit.
  const shop = () => suite.service.tenant(['stores:write', 'stores:read'], { plan: 'essential', 'billing-mode': 'processor' });
  const storesOf = async (token: string) => (await suite.service.request('GET', '/api/v1/stores', { token })).body.data as Array<{ id: string }>;

  it.each([1, 2, 3, 4])('creates the store once when the retry with the same key follows a crash after append %i', async (appends) => {
    const { token } = await shop();
    const body = { domain: `crash-retry-${appends}-${Date.now().toString(36)}.com.br` };
    const retry = await crashThenRetry('/stores', token, body, appends, STORE_CREATE);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ domain: body.domain });
    expect((await storesOf(token)).map((store) => store.id)).toEqual([retry.body.id]);
  });

  it.each([2, 3])('gives the domain and the slot to a new request once a create that died after append %i is abandoned', async (appends) => {
    const { token } = await shop();
    const body = { domain: `crash-new-${appends}-${Date.now().toString(36)}.com.br` };
    const crash = crashAfterAppends(eventStore(), appends, STORE_CREATE);
    expect((await post('/stores', token, body, `dead-${appends}`)).status).toBe(UNAVAILABLE);
    crash.restart();

    // While the dead create might still be at work, the domain stays its own.
    expect((await post('/stores', token, body, `early-${appends}`)).status).toBe(409);
    clock.advance(ABANDONED);
    const fresh = await post('/stores', token, body, `fresh-${appends}`);
    expect(fresh.status).toBe(201);
    expect((await storesOf(token)).map((store) => store.id)).toEqual([fresh.body.id]);
  });
});
