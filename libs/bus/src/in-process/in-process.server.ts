import { Logger } from '@nestjs/common';
import {
  BaseRpcContext,
  CustomTransportStrategy,
  MessageHandler,
  MsPattern,
  Server,
  WritePacket,
} from '@nestjs/microservices';
import { isSerializedError } from '@pss/kernel';
import { defer, isObservable, lastValueFrom, mergeMap, of, Subscription } from 'rxjs';
import { InjectedFault } from './bus-faults';
import { fromWire, InProcessBroker, InProcessEndpoint } from './in-process.broker';

/** Lets `@MessagePattern(pattern, IN_PROCESS_TRANSPORT)` bind a handler to this transport only. */
export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS');

/** What `@Ctx()` gives a handler on the in-process transport: its pattern, and a heartbeat as KafkaContext has. */
export class InProcessContext extends BaseRpcContext<[string, (() => void)?]> {
  getPattern(): string {
    return this.args[0];
  }

  /** Tells the broker this consumer is alive while a long handler runs (KafkaContext.getHeartbeat's counterpart). */
  getHeartbeat(): () => Promise<void> {
    const beat = this.args[1];
    return async () => beat?.();
  }
}

/**
 * The server half of the in-process transport: runs this application's `@MessagePattern` and `@EventPattern`
 * handlers for the requests and events its broker carries.
 */
export class InProcessServer extends Server implements CustomTransportStrategy, InProcessEndpoint {
  protected override readonly logger = new Logger(InProcessServer.name);
  /**
   * Nest chains the event handlers of one pattern so that calling the first runs them all and joins their results:
   * one failure would then fail the lot. Kept apart here, every handler is a consumer group of its own.
   */
  private readonly eventHandlers = new Map<string, MessageHandler[]>();
  private readonly inFlight = new Set<Subscription>();

  constructor(private readonly broker: InProcessBroker) {
    super();
    this.transportId = IN_PROCESS_TRANSPORT;
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    this.broker.attach(this);
    this._status$.next('connected');
    callback();
  }

  close(): void {
    this.broker.detach(this);
    this.inFlight.forEach(handling => handling.unsubscribe());
    this._status$.next('disconnected');
  }

  on(): never {
    throw new Error('The in-process transport emits no server events; observe `status` instead');
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  override addHandler(
    pattern: MsPattern,
    callback: MessageHandler,
    isEventHandler = false,
    extras: Record<string, unknown> = {},
  ): void {
    if (!isEventHandler) {
      super.addHandler(pattern, callback, isEventHandler, extras);
      return;
    }
    const route = this.normalizePattern(pattern);
    Object.assign(callback, { isEventHandler, extras });
    this.eventHandlers.set(route, [...(this.eventHandlers.get(route) ?? []), callback]);
  }

  answer(pattern: string, message: string, reply: (packet: WritePacket) => void, heartbeat?: () => void): (() => void) | undefined {
    const handler = this.getHandlerByPattern(pattern);
    if (!handler) return undefined;
    const response$ = defer(() => handler(fromWire(message), new InProcessContext([pattern, heartbeat]))).pipe(
      mergeMap(result => (isObservable(result) ? result : of(result))),
    );
    // Server.send subscribes to what the handler returned and ends the reply stream with `isDisposed`.
    const handling = this.send(response$, reply);
    this.inFlight.add(handling);
    handling.add(() => this.inFlight.delete(handling));
    return () => handling.unsubscribe();
  }

  async deliver(pattern: string, message: string): Promise<void> {
    const handlers = this.eventHandlers.get(this.getRouteFromPattern(pattern)) ?? [];
    // Each handler gets its own copy, as each Kafka consumer group reads its own.
    await Promise.all(handlers.map(handler => this.runEventHandler(handler, pattern, fromWire(message))));
  }

  /**
   * Runs one consumer group's handler. Retries and the dead-letter topic are the EventRetryInterceptor's, as on
   * Kafka; an injected crash (fault mode) comes before the handler and is redelivered, as Kafka redelivers a
   * message whose consumer crashed before committing.
   */
  private async runEventHandler(handler: MessageHandler, pattern: string, event: unknown): Promise<void> {
    try {
      while (this.broker.faults?.handlerFails()) this.logger.warn(new InjectedFault(pattern).message);
      const result = await handler(event, new InProcessContext([pattern]));
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    } catch (failure) {
      // What got past the interceptor: logged and let go, so one consumer's failure keeps the event from no other.
      this.logger.error(`An event handler of "${pattern}" failed: ${describeFailure(failure)}`);
    }
  }
}

// Behind the RPC error filter a failure arrives already serialized; without it, as whatever was thrown.
const describeFailure = (failure: unknown): string =>
  isSerializedError(failure)
    ? `${failure.code}: ${failure.message}`
    : failure instanceof Error
      ? (failure.stack ?? failure.message)
      : String(failure);
