import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { DomainError, deserializeError, isSerializedError } from '@pss/kernel';
import { firstValueFrom, lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { Bus, DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from './bus.port';
import { withCommandMeta, type CommandMeta } from './command-meta';

/** How a transport wants a payload, and the key that orders it, handed to its ClientProxy. */
export type WireFormat = (payload: unknown, key?: string) => unknown;

const payloadAsIs: WireFormat = payload => payload;

/**
 * The Bus over any Nest ClientProxy: one place for timeouts and error mapping, whatever the transport. Every
 * request carries a command id and its deadline (command-meta.ts).
 *
 * Payloads and replies are JSON objects or arrays (or null): Nest's Kafka codec delivers a bare number or boolean
 * as a string, which the in-process transport would not.
 */
export class TransportBus implements Bus {
  private readonly logger = new Logger(TransportBus.name);

  constructor(
    private readonly client: ClientProxy,
    private readonly wire: WireFormat = payloadAsIs,
    /** BUS_REQUEST_TIMEOUT_MS: how long a command waits for its reply unless its caller says otherwise. */
    private readonly requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {}

  async request<Reply = unknown>(
    pattern: string,
    payload: unknown,
    options: RequestOptions = {},
  ): Promise<Reply> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const meta: CommandMeta = { id: options.commandIds?.next(pattern) ?? randomUUID(), deadline: new Date(Date.now() + timeoutMs).toISOString() };
    if (options.actor !== undefined) meta.actor = options.actor;
    const reply$ = this.client.send<Reply>(pattern, this.wire(withCommandMeta(payload, meta), options.key));
    try {
      return await firstValueFrom(reply$.pipe(timeout(timeoutMs)));
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
