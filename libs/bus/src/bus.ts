import { Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { DomainError, deserializeError, isSerializedError } from '@pss/kernel';
import { firstValueFrom, lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { Bus, DEFAULT_REQUEST_TIMEOUT_MS } from './bus.port';

/** How a transport wants a payload, and the key that orders it, handed to its ClientProxy. */
export type WireFormat = (payload: unknown, key?: string) => unknown;

const payloadAsIs: WireFormat = payload => payload;

/**
 * The Bus over any Nest ClientProxy: one place for timeouts and error mapping, whatever the transport.
 *
 * Payloads and replies are JSON objects or arrays (or null): Nest's Kafka codec delivers a bare number or boolean
 * as a string, which the in-process transport would not.
 */
export class TransportBus implements Bus {
  private readonly logger = new Logger(TransportBus.name);

  constructor(
    private readonly client: ClientProxy,
    private readonly wire: WireFormat = payloadAsIs,
  ) {}

  async request<Reply = unknown>(
    pattern: string,
    payload: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<Reply> {
    const reply$ = this.client.send<Reply>(pattern, this.wire(payload));
    try {
      return await firstValueFrom(reply$.pipe(timeout(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)));
    } catch (failure) {
      throw this.asDomainError(pattern, failure);
    }
  }

  async publish(topic: string, payload: unknown, options: { key?: string } = {}): Promise<void> {
    await lastValueFrom(this.client.emit(topic, this.wire(payload, options.key)));
  }

  private asDomainError(pattern: string, failure: unknown): DomainError {
    if (failure instanceof TimeoutError) {
      return new DomainError('service_unavailable', 'The service did not answer in time');
    }
    // A handler's error crossed the wire as a plain object; an Error instance was raised on this side.
    if (!(failure instanceof Error) && isSerializedError(failure)) return deserializeError(failure);
    this.logger.warn(`The request "${pattern}" got no answer: ${failure instanceof Error ? failure.message : String(failure)}`);
    return new DomainError('service_unavailable', 'The service could not be reached');
  }
}
