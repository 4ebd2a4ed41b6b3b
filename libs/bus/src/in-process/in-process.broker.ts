import type { WritePacket } from '@nestjs/microservices';
import type { SerializedError } from '@pss/kernel';

/** What the broker needs from a server attached to it. Messages arrive as JSON text, as they would off a wire. */
export interface InProcessEndpoint {
  /**
   * Runs the handler of `pattern` and sends its answer through `reply`. Returns how to cancel the handling, or
   * undefined when this endpoint has no handler for the pattern.
   */
  answer(pattern: string, message: string, reply: (packet: WritePacket) => void): (() => void) | undefined;
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
export class InProcessBroker {
  private readonly endpoints = new Set<InProcessEndpoint>();

  attach(endpoint: InProcessEndpoint): void {
    this.endpoints.add(endpoint);
  }

  detach(endpoint: InProcessEndpoint): void {
    this.endpoints.delete(endpoint);
  }

  /** Sends a request to the one handler of its pattern; returns how to cancel it. */
  request(pattern: string, data: unknown, reply: (packet: WritePacket) => void): () => void {
    const message = toWire(data);
    const answerOnWire = (packet: WritePacket): void => reply(replyThroughWire(packet));
    for (const endpoint of this.endpoints) {
      const cancel = endpoint.answer(pattern, message, answerOnWire);
      if (cancel) return cancel;
    }
    // On Kafka a request nobody consumes times out as service_unavailable; here the caller learns it at once.
    reply({ err: noHandler(pattern), isDisposed: true });
    return () => undefined;
  }

  /** Delivers an event to every handler of its pattern and resolves once all of them have finished. */
  async publish(pattern: string, data: unknown): Promise<void> {
    const message = toWire(data);
    await Promise.all([...this.endpoints].map(endpoint => endpoint.deliver(pattern, message)));
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
