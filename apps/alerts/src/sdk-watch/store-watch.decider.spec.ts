import { deciderSpec } from '@pss/testkit';
import { storeWatchDecider, type StoreWatchEvent } from './store-watch.decider';

const started: StoreWatchEvent = { type: 'StoreWatchStarted', data: { storeId: 's1', orgId: 'o1', domain: 'loja.example', at: '2026-05-04T10:00:00.000Z' } };
const stopped: StoreWatchEvent = { type: 'StoreWatchStopped', data: { storeId: 's1', orgId: 'o1', at: '2026-05-05T10:00:00.000Z' } };
const spec = deciderSpec(storeWatchDecider);

describe('store watch decider', () => {
  it('starts watching a store once, and stops once', () => {
    spec.given([]).when({ type: 'StartWatching', ...started.data }).then([started]);
    spec.given([started]).when({ type: 'StartWatching', ...started.data }).thenNothingHappens();
    spec.given([started]).when({ type: 'StopWatching', ...stopped.data }).then([stopped]);
    spec.given([started, stopped]).when({ type: 'StopWatching', ...stopped.data }).thenNothingHappens();
  });
});
