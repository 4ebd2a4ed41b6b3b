import { randomUUID } from 'node:crypto';
import type { Clock } from '@pss/kernel';
import { ManualClock } from '@pss/testkit';
import {
  IN_FLIGHT_TIMEOUT_MS,
  REPLAY_WINDOW_MS,
  type Claim,
  type ClaimResult,
  type IdempotencyStore,
  type IdempotentRequest,
} from './idempotency-store.port';

const CREATED = { status: 201, body: '{"id":"store-1"}' };

function claimOf(result: ClaimResult): Claim {
  if (result.kind !== 'run') throw new Error(`expected to run, got ${result.kind}`);
  return result.claim;
}

/**
 * The promises of the IdempotencyStore port. Every adapter runs this one suite on a fresh store per test, moved
 * through time by a ManualClock; scopes are unique per test, so a shared server is fine.
 */
export function idempotencyStoreConformance(
  name: string,
  factory: (clock: Clock) => Promise<{ store: IdempotencyStore; cleanup: () => Promise<void> }>,
): void {
  describe(`${name} idempotency store (conformance)`, () => {
    let clock: ManualClock;
    let store: IdempotencyStore;
    let cleanup: () => Promise<void>;
    let request: IdempotentRequest;

    beforeEach(async () => {
      clock = new ManualClock('2026-03-01T12:00:00.000Z');
      ({ store, cleanup } = await factory(clock));
      request = { scope: `org-${randomUUID()}`, key: 'key-1', fingerprint: 'fingerprint-a' };
    });
    afterEach(() => cleanup());

    it('lets the first request run and tells a retry it is still in progress', async () => {
      claimOf(await store.claim(request));
      expect(await store.claim(request)).toEqual({ kind: 'in_progress' });
    });

    it('replays the completed response to the same request', async () => {
      await store.complete(claimOf(await store.claim(request)), CREATED);
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
    });

    it('keeps an empty body apart from no response', async () => {
      await store.complete(claimOf(await store.claim(request)), { status: 200, body: '' });
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: { status: 200, body: '' } });
    });

    it('refuses the key to another fingerprint, in flight and completed', async () => {
      const other = { ...request, fingerprint: 'fingerprint-b' };
      const claim = claimOf(await store.claim(request));
      expect(await store.claim(other)).toEqual({ kind: 'key_reused' });
      await store.complete(claim, CREATED);
      expect(await store.claim(other)).toEqual({ kind: 'key_reused' });
    });

    it('keeps the keys of two scopes apart', async () => {
      await store.complete(claimOf(await store.claim(request)), CREATED);
      const otherScope = { ...request, scope: `org-${randomUUID()}`, fingerprint: 'fingerprint-b' };
      claimOf(await store.claim(otherScope));
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
    });

    it('keeps scope and key apart whatever characters they hold', async () => {
      claimOf(await store.claim({ ...request, scope: 'a:b', key: 'c' }));
      claimOf(await store.claim({ ...request, scope: 'a', key: 'b:c' }));
    });

    it('frees a released key at once, so a retry runs again', async () => {
      await store.release(claimOf(await store.claim(request)));
      claimOf(await store.claim(request));
    });

    it('lets exactly one of many concurrent claims run', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(request)));
      expect(results.filter((result) => result.kind === 'run')).toHaveLength(1);
      expect(results.filter((result) => result.kind === 'in_progress')).toHaveLength(19);
    });

    it('replays for 24 hours after the response, then frees the key', async () => {
      await store.complete(claimOf(await store.claim(request)), CREATED);
      clock.advance(REPLAY_WINDOW_MS - 1);
      expect(await store.claim({ ...request, fingerprint: 'fingerprint-b' })).toEqual({ kind: 'key_reused' });
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
      clock.advance(1);
      claimOf(await store.claim({ ...request, fingerprint: 'fingerprint-b' }));
    });

    it('frees a key whose request never answered once the in-flight timeout has passed', async () => {
      claimOf(await store.claim(request));
      clock.advance(IN_FLIGHT_TIMEOUT_MS - 1);
      expect(await store.claim(request)).toEqual({ kind: 'in_progress' });
      clock.advance(1);
      claimOf(await store.claim(request));
    });

    it('lets exactly one of many concurrent claims take over an expired key', async () => {
      claimOf(await store.claim(request));
      clock.advance(IN_FLIGHT_TIMEOUT_MS);
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(request)));
      expect(results.filter((result) => result.kind === 'run')).toHaveLength(1);
    });

    it('ignores the completion and release of a claim that expired and was taken over', async () => {
      const stale = claimOf(await store.claim(request));
      clock.advance(IN_FLIGHT_TIMEOUT_MS);
      const current = claimOf(await store.claim(request));
      await store.complete(stale, { status: 500, body: '{"stale":true}' });
      await store.release(stale);
      expect(await store.claim(request)).toEqual({ kind: 'in_progress' });
      await store.complete(current, CREATED);
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
    });

    it('never releases a completed key', async () => {
      const claim = claimOf(await store.claim(request));
      await store.complete(claim, CREATED);
      await store.release(claim);
      expect(await store.claim(request)).toEqual({ kind: 'replay', response: CREATED });
    });

    it('purges expired records only', async () => {
      await store.complete(claimOf(await store.claim(request)), CREATED);
      claimOf(await store.claim({ ...request, key: 'abandoned' }));
      clock.advance(IN_FLIGHT_TIMEOUT_MS);
      expect(await store.purgeExpired()).toBe(1); // the abandoned claim
      clock.advance(REPLAY_WINDOW_MS - IN_FLIGHT_TIMEOUT_MS - 1);
      expect(await store.purgeExpired()).toBe(0);
      clock.advance(1);
      expect(await store.purgeExpired()).toBe(1); // the response
    });

    it('purges expired records as claims come in', async () => {
      await store.complete(claimOf(await store.claim(request)), CREATED);
      clock.advance(REPLAY_WINDOW_MS);
      claimOf(await store.claim({ ...request, key: 'later' }));
      expect(await store.purgeExpired()).toBe(0);
    });
  });
}
