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
    await new Promise((resolve) => setImmediate(resolve));
    await yieldToRequests(); // may be the first call after a long pause: starts a fresh slice
    expect(yieldToRequests()).toBeUndefined();
  });
});
