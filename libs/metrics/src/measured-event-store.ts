import { WrongExpectedRevisionError, type EventStore } from '@pss/event-store';
import type { Metrics } from './metrics';

/**
 * The same event store, timing every append by outcome. A proxy rather than a wrapper class: the adapter keeps
 * its identity and its own capabilities (the idempotency store shares the SQLite adapter's database), and every
 * other method reaches the adapter unchanged.
 */
export function measureAppends<T extends EventStore>(store: T, metrics: Metrics): T {
  const append: EventStore['append'] = async (stream, events, options) => {
    const end = metrics.eventStoreAppendDuration.startTimer();
    try {
      const result = await store.append(stream, events, options);
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' });
      throw error;
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
