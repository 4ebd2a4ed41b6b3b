import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { CommandIds } from '@pss/bus';
import { DomainError } from '@pss/kernel';
import { REPLAY_WINDOW_MS } from '@pss/idempotency';
import { ManualClock } from '@pss/testkit';
import { Idempotent } from './idempotent.decorator';
import { IdempotencyModule } from './idempotency.module';
import { RequestCommandIds } from './request-command-ids';
import { startGatewayTestApp, TEST_ORG_HEADER, type GatewayTestApp } from './testing/gateway-test-app';

/** A promise the test settles. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

@Controller('things')
class ThingsController {
  calls = 0;
  held?: { entered: () => void; released: Promise<void> };
  failure?: Error;
  /** The command ids the last request to `commands` sent. */
  sent: string[] | null = null;

  @Post()
  @Idempotent()
  async create(@Body() body: unknown) {
    const call = ++this.calls;
    if (this.held) {
      this.held.entered();
      await this.held.released;
    }
    if (this.failure) throw this.failure;
    return { id: `thing-${call}`, body };
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @Idempotent()
  rotate(@Param('id') id: string) {
    return { id, rotation: ++this.calls };
  }

  @Post('untracked')
  untracked() {
    return { call: ++this.calls };
  }

  /** The ids of the commands the request would send: two of one pattern, one of another. */
  @Post('commands')
  @Idempotent()
  commands(@RequestCommandIds() ids?: CommandIds) {
    ++this.calls;
    this.sent = ids ? [ids.next('thing.create'), ids.next('thing.create'), ids.next('thing.notify')] : null;
    if (this.failure) throw this.failure;
    return { ids: this.sent };
  }
}

/** Holds the next requests in the handler, in flight, until released. */
function holdHandler(things: ThingsController): { entered: Promise<void>; release: () => void } {
  const entered = gate();
  const released = gate();
  things.held = { entered: entered.open, released: released.promise };
  return { entered: entered.promise, release: released.open };
}

describe('Idempotency-Key (interceptor)', () => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  let testApp: GatewayTestApp;
  let things: ThingsController;
  let keys = 0;
  /** A key no other test used: every test starts from free keys. */
  const freshKey = () => `key-${++keys}`;

  beforeAll(async () => {
    testApp = await startGatewayTestApp({ imports: [IdempotencyModule], controllers: [ThingsController], clock });
    things = testApp.app.get(ThingsController);
  });
  afterAll(() => testApp.close());
  beforeEach(() => {
    things.calls = 0;
    things.held = undefined;
    things.failure = undefined;
  });

  async function post(url: string, call: { key?: string; body?: object; org?: string } = {}) {
    const headers: Record<string, string> = {};
    if (call.key !== undefined) headers['idempotency-key'] = call.key;
    if (call.org) headers[TEST_ORG_HEADER] = call.org;
    const response = await testApp.app.getHttpAdapter().getInstance().inject({ method: 'POST', url, headers, payload: call.body });
    return { status: response.statusCode, headers: response.headers, body: response.json(), text: response.body };
  }

  it('replays the first response to a retry, marked as replayed, without running the handler again', async () => {
    const key = freshKey();
    const first = await post('/things', { key, body: { name: 'a', size: 1 } });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post('/things', { key, body: { size: 1, name: 'a' } }); // key order does not matter
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(things.calls).toBe(1);
  });

  it('replays the status the route answers with', async () => {
    const key = freshKey();
    const first = await post('/things/t1/rotate', { key });
    const retry = await post('/things/t1/rotate', { key });
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body).toEqual({ id: 't1', rotation: 1 });
  });

  it('answers 422 idempotency_key_reused to the key with another body or another path', async () => {
    const key = freshKey();
    await post('/things', { key, body: { name: 'a' } });
    const otherBody = await post('/things', { key, body: { name: 'b' } });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error.code).toBe('idempotency_key_reused');
    expect((await post('/things/t1/rotate', { key })).status).toBe(422);
    expect(things.calls).toBe(1);
  });

  it('answers 409 idempotency_in_progress while the first request runs', async () => {
    const key = freshKey();
    const held = holdHandler(things);
    const first = post('/things', { key, body: { name: 'a' } });
    await held.entered;
    const retry = await post('/things', { key, body: { name: 'a' } });
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('idempotency_in_progress');
    held.release();
    expect((await first).status).toBe(201);
    expect((await post('/things', { key, body: { name: 'a' } })).headers['idempotent-replayed']).toBe('true');
  });

  it('runs the handler exactly once for concurrent identical requests', async () => {
    const key = freshKey();
    const held = holdHandler(things);
    const pending = Array.from({ length: 5 }, () => post('/things', { key, body: { name: 'a' } }));
    // The handler is held until four requests have been answered: all five met while one was in flight.
    let answered = 0;
    const othersAnswered = gate();
    pending.forEach((answer) => answer.then(() => ++answered === 4 && othersAnswered.open()));
    await othersAnswered.promise;
    held.release();
    const statuses = (await Promise.all(pending)).map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect(things.calls).toBe(1);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['not printable ASCII', 'key\u0007'],
  ])('refuses a key that is %s with 400 validation_error on Idempotency-Key', async (_case, key) => {
    const answer = await post('/things', { key, body: { name: 'a' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: 'validation_error',
      message: 'Request validation failed',
      details: [{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' }],
    });
    expect(things.calls).toBe(0);
  });

  it('accepts a key of 255 characters', async () => {
    const key = `${freshKey()}-`.padEnd(255, 'k');
    expect((await post('/things', { key, body: { name: 'a' } })).status).toBe(201);
    expect((await post('/things', { key, body: { name: 'a' } })).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps no 5xx response: a retry runs the handler again', async () => {
    const key = freshKey();
    things.failure = new Error('connection lost');
    expect((await post('/things', { key, body: { name: 'a' } })).status).toBe(500);
    things.failure = new DomainError('service_unavailable', 'Inventory is not answering');
    expect((await post('/things', { key, body: { name: 'a' } })).status).toBe(503);
    things.failure = undefined;
    const retry = await post('/things', { key, body: { name: 'a' } });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(things.calls).toBe(3);
  });

  it('replays a definite refusal (409 conflict) like a response', async () => {
    const key = freshKey();
    things.failure = new DomainError('conflict', 'A store with this domain exists');
    const first = await post('/things', { key, body: { name: 'a' } });
    things.failure = undefined;
    const retry = await post('/things', { key, body: { name: 'a' } });
    expect(first.status).toBe(409);
    expect(retry.status).toBe(409);
    expect(retry.text).toBe(first.text);
    expect(retry.body).toEqual({ error: { code: 'conflict', message: 'A store with this domain exists' } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(things.calls).toBe(1);
  });

  it('keeps no validation error: the corrected request may use the key', async () => {
    const key = freshKey();
    things.failure = new DomainError('validation_error', 'Request validation failed', [{ field: 'name', message: 'too long' }]);
    expect((await post('/things', { key, body: { name: 'a'.repeat(200) } })).status).toBe(400);
    things.failure = undefined;
    expect((await post('/things', { key, body: { name: 'a' } })).status).toBe(201);
  });

  it('frees the key 24 hours after the response', async () => {
    const key = freshKey();
    await post('/things', { key, body: { name: 'a' } });
    clock.advance(REPLAY_WINDOW_MS - 1);
    expect((await post('/things', { key, body: { name: 'b' } })).status).toBe(422);
    clock.advance(1);
    const later = await post('/things', { key, body: { name: 'b' } });
    expect(later.status).toBe(201);
    expect(later.body).toEqual({ id: 'thing-2', body: { name: 'b' } });
  });

  it('keeps the keys of two organizations apart', async () => {
    const key = freshKey();
    const first = await post('/things', { key, body: { name: 'a' }, org: 'org-a' });
    const second = await post('/things', { key, body: { name: 'a' }, org: 'org-b' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(things.calls).toBe(2);
  });

  it('runs every request without a key', async () => {
    await post('/things', { body: { name: 'a' } });
    await post('/things', { body: { name: 'a' } });
    expect(things.calls).toBe(2);
  });

  it("gives the route's commands ids derived from the key: a retry after a 503 sends the same ones", async () => {
    const key = freshKey();
    things.failure = new DomainError('service_unavailable', 'Inventory is not answering');
    expect((await post('/things/commands', { key })).status).toBe(503);
    const firstAttempt = things.sent;
    things.failure = undefined;

    const retry = await post('/things/commands', { key });
    const ids = (await post('/things/commands', { key: freshKey() })).body.ids;
    const elsewhere = (await post('/things/commands', { key, org: 'org-b' })).body.ids;

    expect(retry.status).toBe(201);
    expect(new Set(retry.body.ids).size).toBe(3);
    // A 503 is not kept, so the retry ran, sending the first attempt's ids: a command still running is answered, not run twice.
    expect(retry.body.ids).toEqual(firstAttempt);
    expect(ids).not.toEqual(retry.body.ids);
    expect(elsewhere).not.toEqual(retry.body.ids);
    expect((await post('/things/commands')).body.ids).toBeNull();
  });

  it('ignores the header on routes without @Idempotent()', async () => {
    const key = freshKey();
    const first = await post('/things/untracked', { key });
    const second = await post('/things/untracked', { key: '' });
    expect([first.body, second.body]).toEqual([{ call: 1 }, { call: 2 }]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
  });
});
