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

  const eventStore = () => suite.service.app.get<EventStore>(EVENT_STORE);
  const post = (path: string, token: string, body: unknown, key: string) =>
    suite.service.request('POST', `/api/v1${path}`, { token, body, headers: { 'idempotency-key': key } });

  // The claim, OrganizationCreated, OwnerInvitationRecorded.
  it.each([1, 2, 3])('creates the organization once when the retry follows a crash after append %i', async (appends) => {
    const { token } = await suite.service.tenant(['orgs:manage']);
    const body = { name: `Acme ${appends}`, owner_email: `owner${appends}@crash.example` };
    const crash = crashAfterAppends(eventStore(), appends);
    const during = await post('/organizations', token, body, `org-crash-${appends}`);
    crash.restart();
    expect(during.status).toBe(UNAVAILABLE);

    clock.advance(ABANDONED);
    const retry = await post('/organizations', token, body, `org-crash-${appends}`);
    expect(retry.status).toBe(201);
    // Died between inviting the owner and recording it: the retry finds the owner's user the invitation made.
    expect(retry.body).toMatchObject({ name: body.name, owner_invite: expect.stringMatching(/^(sent|existing_user)$/) });
    const listed = (await suite.service.request('GET', '/api/v1/organizations', { token })).body.data;
    expect(listed.map((org: { id: string }) => org.id)).toEqual([retry.body.id]);
  });
});
