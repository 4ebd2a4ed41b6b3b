import type { WritePacket } from '@nestjs/microservices';
import type { SerializedError } from '@pss/kernel';
import { DEAD_LETTER_TOPIC, newestListed, type DeadLetter, type DeadLetterLog } from '../dead-letter';
import { FaultPlan, type BusFaults } from './bus-faults';

/** What the broker needs from a server attached to it. Messages arrive as JSON text, as they would off a wire. */
export interface InProcessEndpoint {
  /**
   * Runs the handler of `pattern` and sends its answer through `reply`. Returns how to cancel the handling, or
   * undefined when this endpoint has no handler for the pattern.
   */
  answer(pattern: string, message: string, reply: (packet: WritePacket) => void, heartbeat?: () => void): (() => void) | undefined;
  /** Hands the event to every handler of `pattern`; settles once all of them have finished. */
  deliver(pattern: string, message: string): Promise<void>;
}

/**
 * Where the in-process clients and servers of one application meet. One instance per application (provided by
 * BusModule), never a module-level singleton, so two applications in one process, as in tests, cannot hear
 * each other.
 *
 * Everything crosses as JSON text so that the in-process transport behaves like a real wire: no shared references,
 * dates arrive as strings, `undefined` arrives as `null` (as Nest's Kafka serializer sends it).
 */
export class InProcessBroker implements DeadLetterLog {
  private readonly endpoints = new Set<InProcessEndpoint>();
  /** Replica listeners (ReplicaEvents): they hear every event without opening the broker, which only a server does. */
  private readonly listeners = new Set<(pattern: string, message: string) => void>();
  /** The dead-letter topic, as Kafka would keep it, so operators list it in embedded mode too. */
  private deadLetters: DeadLetter[] = [];
  /** Deliveries scheduled in fault mode and not finished yet. */
  private readonly pending = new Set<Promise<void>>();
  readonly faults: FaultPlan | undefined;
  private attached!: () => void;
  /**
   * Settles when the first server attaches. The application initializes (read models registered, publishers
   * started) before its bus server listens, as on Kafka; events published meanwhile wait here, as they would in
   * a topic, instead of reaching no one.
   */
  private readonly open = new Promise<void>(resolve => {
    this.attached = resolve;
  });

  /** With `faults`, the broker delivers like Kafka at its worst: twice, late, out of order across topics. */
  constructor(faults?: BusFaults) {
    this.faults = faults ? new FaultPlan(faults) : undefined;
  }

  attach(endpoint: InProcessEndpoint): void {
    this.endpoints.add(endpoint);
    this.attached();
  }

  detach(endpoint: InProcessEndpoint): void {
    this.endpoints.delete(endpoint);
  }

  /** Hands every event delivered from now on to `listener` too; returns how to stop. */
  listen(listener: (pattern: string, message: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a request to the one handler of its pattern; returns how to cancel it. */
  request(pattern: string, data: unknown, reply: (packet: WritePacket) => void): () => void {
    const message = toWire(data);
    const answerOnWire = (packet: WritePacket): void => reply(replyThroughWire(packet));
    if (this.faults) return this.requestWithFaults(this.faults, pattern, message, answerOnWire);
    const cancel = this.answer(pattern, message, answerOnWire);
    if (cancel) return cancel;
    // On Kafka a request nobody consumes times out as service_unavailable; here the caller learns it at once.
    reply({ err: noHandler(pattern), isDisposed: true });
    return () => undefined;
  }

  /** Delivers an event to every handler of its pattern and resolves once all of them have finished. */
  async publish(pattern: string, data: unknown): Promise<void> {
    const message = toWire(data);
    const refused = this.faults?.refusal(pattern, message);
    if (refused) throw new Error(refused);
    if (pattern === DEAD_LETTER_TOPIC) this.deadLetters = newestListed([...this.deadLetters, fromWire(message) as DeadLetter]);
    await this.open;
    if (!this.faults) return this.deliver(pattern, message);
    // Accepted, as a Kafka producer's send resolves once the broker has the record: delivery comes later, so two
    // topics published one after the other may arrive in either order.
    for (let copy = this.faults.copies(); copy > 0; copy -= 1) this.later(this.faults.delayMs(), () => this.deliver(pattern, message));
  }

  /** What the dead-letter topic holds, the newest last. */
  async list(): Promise<DeadLetter[]> {
    return [...this.deadLetters];
  }

  /** Resolves once every delivery scheduled so far (fault mode) has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private answer(pattern: string, message: string, reply: (packet: WritePacket) => void, heartbeat?: () => void): (() => void) | undefined {
    for (const endpoint of this.endpoints) {
      const cancel = endpoint.answer(pattern, message, reply, heartbeat);
      if (cancel) return cancel;
    }
    return undefined;
  }

  private async deliver(pattern: string, message: string): Promise<void> {
    this.listeners.forEach(listener => listener(pattern, message));
    await Promise.all([...this.endpoints].map(endpoint => endpoint.deliver(pattern, message)));
  }

  /**
   * A Kafka request runs once per delivery, whether or not its caller still waits: cancelling only stops
   * listening for the reply. The caller takes the first reply, as Nest's ClientKafka takes the first one with its
   * correlation id.
   */
  private requestWithFaults(plan: FaultPlan, pattern: string, message: string, reply: (packet: WritePacket) => void): () => void {
    let listening = true;
    let answered = false;
    const refused = plan.refusal(pattern, message);
    if (refused) {
      reply({ err: { code: 'service_unavailable', message: refused }, isDisposed: true });
      return () => undefined;
    }
    const firstReply = (packet: WritePacket): void => {
      plan.faults.onReply?.(pattern, packet);
      // Past the limit a reply never reaches its topic: the caller hears nothing and times out.
      if (plan.refusal(`${pattern}.reply`, toWire(packet.response ?? null))) return;
      if (!listening || answered) return;
      if (packet.isDisposed || packet.err !== undefined) answered = true;
      reply(packet);
    };
    for (let copy = plan.copies(); copy > 0; copy -= 1) {
      this.later(plan.delayMs(), async () => {
        this.deliverWatched(plan, pattern, message, firstReply);
      });
    }
    return () => {
      listening = false;
    };
  }

  /**
   * One delivery of a request. With a session timeout, a handler that sends no heartbeat for that long is evicted
   * as Kafka evicts its consumer: the group rebalances and the request, its offset not committed, is delivered
   * again (the evicted run goes on and may answer too).
   */
  private deliverWatched(plan: FaultPlan, pattern: string, message: string, reply: (packet: WritePacket) => void, redelivered = false): void {
    const sessionMs = plan.faults.sessionTimeoutMs;
    let lastBeat = Date.now();
    let done = false;
    const watchdog =
      sessionMs === undefined || redelivered
        ? undefined
        : setInterval(() => {
            if (done || Date.now() - lastBeat <= sessionMs) return;
            clearInterval(watchdog);
            this.deliverWatched(plan, pattern, message, reply, true);
          }, sessionMs / 5);
    const finished = (packet: WritePacket): void => {
      if (packet.isDisposed || packet.err !== undefined) {
        done = true;
        clearInterval(watchdog);
      }
      reply(packet);
    };
    if (!this.answer(pattern, message, finished, () => (lastBeat = Date.now()))) finished({ err: noHandler(pattern), isDisposed: true });
  }

  private later(delayMs: number, delivery: () => Promise<void>): void {
    const done = new Promise<void>(resolve => setTimeout(resolve, delayMs)).then(delivery).catch(() => undefined);
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }
}

export const toWire = (value: unknown): string => JSON.stringify(value) ?? 'null';

export const fromWire = (message: string): unknown => JSON.parse(message);

// Nest's Kafka server always sends a response value, `null` when the handler produced none; so does this one.
const replyThroughWire = ({ err, response, isDisposed }: WritePacket): WritePacket => ({
  ...(err === undefined ? {} : { err: fromWire(toWire(err)) }),
  response: fromWire(toWire(response ?? null)),
  ...(isDisposed ? { isDisposed } : {}),
});

const noHandler = (pattern: string): SerializedError => ({
  code: 'service_unavailable',
  message: `No service handles "${pattern}"`,
});
