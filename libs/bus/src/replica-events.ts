import { Logger } from '@nestjs/common';
import type { ReplicaEvents } from './bus.port';
import { fromWire, type InProcessBroker } from './in-process/in-process.broker';

type Handler = (topic: string, payload: unknown) => void;

/** A handler that throws loses its own event, never the delivery of that event to anyone else. */
export function guarded(handler: Handler, logger: Logger): Handler {
  return (topic, payload) => {
    try {
      handler(topic, payload);
    } catch (failure) {
      logger.error(`A replica handler of "${topic}" failed: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  };
}

/** Embedded mode: one process is the only replica, so it hears every event the broker delivers. */
export class InProcessReplicaEvents implements ReplicaEvents {
  private readonly logger = new Logger('ReplicaEvents');

  constructor(private readonly broker: InProcessBroker) {}

  async subscribe(topics: readonly string[], handler: Handler): Promise<() => Promise<void>> {
    const wanted = new Set(topics);
    const safe = guarded(handler, this.logger);
    const stop = this.broker.listen((pattern, message) => {
      if (wanted.has(pattern)) safe(pattern, fromWire(message));
    });
    return async () => stop();
  }
}
