/**
 * The faults Kafka has and a faithful in-process bus would hide: what the in-process transport injects when it is
 * given a fault plan, so tests see the same class of failure as production.
 *
 * - at-least-once: a share of requests and events is delivered a second time (a rebalance before the offset commit);
 * - late delivery: every message waits up to `maxDelayMs`, so a request may run after its caller gave up and two
 *   topics arrive in either order;
 * - a handler that throws: a share of event deliveries fails once before the handler runs, as a crashed consumer
 *   would, and the transport must redeliver it.
 *
 * Draws come from a seeded generator: a failing run is reproduced by its seed.
 */
export interface BusFaults {
  /** Share (0 to 1) of messages delivered twice. */
  duplicateRate: number;
  /** Longest wait before a message is delivered, in ms. */
  maxDelayMs: number;
  /** Share (0 to 1) of event deliveries whose first attempt throws. */
  handlerFailureRate: number;
  /**
   * The broker's `message.max.bytes`: a larger request or event is refused to its producer, a larger reply is lost
   * (Nest does not await a reply's send), as on Kafka.
   */
  maxMessageBytes?: number;
  /** Kafka's session timeout: a request handler that sends no heartbeat for this long is evicted and its request redelivered. */
  sessionTimeoutMs?: number;
  seed?: number;
  /**
   * Hears the reply of every delivery of every request, those its caller no longer listens to included (the
   * caller takes the first): tests check that a command delivered twice answers the same both times.
   */
  onReply?: (pattern: string, reply: { err?: unknown; response?: unknown }) => void;
}

/** Kafka's default `message.max.bytes` (1 MiB; the broker adds 12 bytes of its own). */
export const KAFKA_MAX_MESSAGE_BYTES = 1_048_576;

/** The faults the conformance suite and the fault-mode end-to-end tests run with. */
export const TYPICAL_FAULTS: BusFaults = { duplicateRate: 0.3, maxDelayMs: 30, handlerFailureRate: 0.2, seed: 13 };

/** Draws the faults of one broker's messages. */
export class FaultPlan {
  private state: number;

  constructor(readonly faults: BusFaults) {
    this.state = (faults.seed ?? 1) >>> 0;
  }

  copies(): number {
    return this.draw() < this.faults.duplicateRate ? 2 : 1;
  }

  delayMs(): number {
    return Math.floor(this.draw() * this.faults.maxDelayMs);
  }

  handlerFails(): boolean {
    return this.draw() < this.faults.handlerFailureRate;
  }

  /** Why the broker refuses `message`, when it is over the limit. */
  refusal(pattern: string, message: string): string | undefined {
    const bytes = Buffer.byteLength(message);
    const limit = this.faults.maxMessageBytes;
    return limit !== undefined && bytes > limit ? `The message to "${pattern}" is too large: ${bytes} bytes, the broker takes ${limit}` : undefined;
  }

  // mulberry32: small, fast, and the same sequence for the same seed on every platform.
  private draw(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** The error an injected handler failure throws, so logs tell it from a real one. */
export class InjectedFault extends Error {
  constructor(pattern: string) {
    super(`Injected fault: the consumer of "${pattern}" crashed before handling it`);
  }
}
