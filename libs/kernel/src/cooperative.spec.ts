import { SLICE_MS, yieldToRequests } from './cooperative';

const busyFor = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('yieldToRequests', () => {
  it('lets a timer queued behind a long loop of synchronous work run before the loop ends', async () => {
    let loopDone = false;
    let timerRanBeforeLoopEnded: boolean | undefined;
    setTimeout(() => (timerRanBeforeLoopEnded = !loopDone), 0);
    for (let item = 0; item < 20; item += 1) {
      busyFor(SLICE_MS / 2);
      await yieldToRequests();
    }
    loopDone = true;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timerRanBeforeLoopEnded).toBe(true);
  });

  it('costs no turn of the event loop while the slice lasts', async () => {
    // A clock of the test's own: on a loaded machine the real one can pass a whole slice between two calls.
    let now = performance.now() + 60_000;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      await yieldToRequests(); // the slice is long spent at this clock: one turn, and a fresh slice starts
      now += SLICE_MS - 1;
      expect(yieldToRequests()).toBeUndefined();
      now += 1;
      const spent = yieldToRequests();
      expect(spent).toBeInstanceOf(Promise);
      await spent;
    } finally {
      clock.mockRestore();
    }
  });
});
