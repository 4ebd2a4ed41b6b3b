import { ManualClock } from '@pss/testkit';
import { EndpointBreakers } from './endpoint-breakers';
import { FairQueue, PARKED, type FairShares, type Lane } from './fair-queue';

/** A task the test ends by hand, with the value it is to end with. */
interface Held {
  lane: Lane;
  end: (value: string) => void;
}

const SHARES: FairShares = { total: 6, perOrganization: 3, perEndpoint: 4, perOrganizationAtEndpoint: 2, waitingPerOrganization: 100 };
const SILENT = 'https://silent.example:8443';
const SHARED = 'https://shared.example';
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('fair queue', () => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  let held: Held[];
  let results: Array<Promise<string | typeof PARKED>>;

  beforeEach(() => {
    held = [];
    results = [];
  });

  const submit = (queue: FairQueue<string>, lane: Lane, count = 1) => {
    for (let i = 0; i < count; i += 1) {
      results.push(queue.run(lane, () => new Promise<string>((end) => held.push({ lane, end }))));
    }
  };
  const running = (org: string, endpoint?: string) => held.filter(({ lane }) => lane.org === org && (!endpoint || lane.endpoint === endpoint)).length;
  /** Ends the oldest running tasks of a lane with `value`, and lets the queue start what fits. */
  const end = async (lane: Lane, value: string, count = 1) => {
    for (let i = 0; i < count; i += 1) {
      const index = held.findIndex((task) => task.lane.org === lane.org && task.lane.endpoint === lane.endpoint);
      held.splice(index, 1)[0].end(value);
    }
    await flush();
  };

  it("keeps room for other organizations: one organization's backlog never holds more than its share", async () => {
    const queue = new FairQueue<string>(SHARES);
    submit(queue, { org: 'a', endpoint: 'https://a1.example' }, 10);
    submit(queue, { org: 'a', endpoint: 'https://a2.example' }, 10);
    await flush();
    expect(running('a')).toBe(3);
    submit(queue, { org: 'b', endpoint: 'https://b.example' });
    await flush();
    expect(running('b')).toBe(1);
  });

  it('hands freed slots out in turn between organizations', async () => {
    const queue = new FairQueue<string>({ ...SHARES, total: 2, perOrganization: 2 });
    const a = { org: 'a', endpoint: 'https://a.example' };
    const b = { org: 'b', endpoint: 'https://b.example' };
    submit(queue, a, 5);
    submit(queue, b, 5);
    await flush();
    expect([running('a'), running('b')]).toEqual([2, 0]);
    await end(a, 'ok');
    expect([running('a'), running('b')]).toEqual([1, 1]);
    await end(a, 'ok');
    expect([running('a'), running('b')]).toEqual([1, 1]);
    await end(b, 'ok');
    expect([running('a'), running('b')]).toEqual([1, 1]);
  });

  it('caps an endpoint, and what one organization holds of it, without holding up the next attempt elsewhere', async () => {
    const queue = new FairQueue<string>(SHARES);
    submit(queue, { org: 'a', endpoint: SHARED }, 5);
    submit(queue, { org: 'a', endpoint: 'https://a-other.example' });
    submit(queue, { org: 'b', endpoint: SHARED }, 5);
    submit(queue, { org: 'c', endpoint: SHARED }, 5);
    await flush();
    // Two of a's on the shared host, and its third slot goes to another endpoint rather than waiting in line.
    expect([running('a', SHARED), running('a', 'https://a-other.example')]).toEqual([2, 1]);
    expect(running('b', SHARED) + running('c', SHARED)).toBe(2);
    expect(held.filter(({ lane }) => lane.endpoint === SHARED)).toHaveLength(4);
  });

  it('frees the slot of a task that failed', async () => {
    const queue = new FairQueue<string>({ ...SHARES, total: 1 });
    const lane = { org: 'a', endpoint: SHARED };
    await expect(queue.run(lane, () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    await expect(queue.run(lane, async () => 'next')).resolves.toBe('next');
  });

  it("turns away an organization's attempts beyond what may wait, and no other's", async () => {
    const queue = new FairQueue<string>({ ...SHARES, perOrganization: 1, waitingPerOrganization: 2 });
    submit(queue, { org: 'a', endpoint: SHARED }, 4);
    submit(queue, { org: 'b', endpoint: SHARED });
    await flush();
    expect(held.map(({ lane }) => lane.org)).toEqual(['a', 'b']);
    await expect(results[3]).resolves.toBe(PARKED);
  });

  describe('with breakers', () => {
    const breakerQueue = (endpoints = new EndpointBreakers({ timeoutsToOpen: 2, halfOpenAfterMs: 60_000 }, clock)) =>
      new FairQueue<string>(SHARES, { endpoints, verdictOf: (value) => (value === 'timeout' ? 'timeout' : 'prompt') });
    const silentOfA = { org: 'a', endpoint: SILENT };

    it("parks what waits for an endpoint that keeps timing out, and what comes for it while open; other organizations' attempts to it go on", async () => {
      const queue = breakerQueue();
      submit(queue, silentOfA, 6);
      submit(queue, { org: 'b', endpoint: SILENT });
      await flush();
      expect([running('a'), running('b')]).toEqual([2, 1]);
      await end(silentOfA, 'timeout', 2);
      // The first timeout let a third attempt start; the second opened the breaker on the three still waiting.
      expect(await Promise.all(results.slice(3, 6))).toEqual([PARKED, PARKED, PARKED]);
      expect(running('a')).toBe(1);
      await end(silentOfA, 'timeout');
      await expect(results[2]).resolves.toBe('timeout');
      submit(queue, silentOfA);
      await expect(results[7]).resolves.toBe(PARKED);
      await end({ org: 'b', endpoint: SILENT }, 'ok');
      await expect(results[6]).resolves.toBe('ok');
      submit(queue, { org: 'b', endpoint: SILENT });
      await flush();
      expect(running('b')).toBe(1);
    });

    /** Opens a's breaker with two timeouts, lets the delay pass, and submits three more attempts. */
    const halfOpenWithThreeWaiting = async () => {
      const queue = breakerQueue();
      submit(queue, silentOfA, 2);
      await flush();
      await end(silentOfA, 'timeout', 2);
      clock.advance(60_000);
      submit(queue, silentOfA, 3);
      await flush();
    };

    it('lets one probe through once half-open; the rest wait for its outcome and go out once it answers', async () => {
      await halfOpenWithThreeWaiting();
      expect(running('a')).toBe(1);
      await end(silentOfA, 'ok');
      expect(running('a')).toBe(2);
    });

    it('parks the ones waiting behind a probe that times out', async () => {
      await halfOpenWithThreeWaiting();
      await end(silentOfA, 'timeout');
      expect(await Promise.all(results.slice(3))).toEqual([PARKED, PARKED]);
      expect(running('a')).toBe(0);
    });
  });
});
