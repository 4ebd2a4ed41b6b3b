import { Inject, Injectable } from '@nestjs/common';
import { fold, yieldToRequests, type Decider, type DomainEvent } from '@pss/kernel';
import {
  EVENT_STORE,
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
} from '@pss/event-store';
import { ProjectionRunner } from '@pss/projections';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { reservationDecider, reservationStream } from './reservation.decider';

export interface CommandContext {
  /** Actor label recorded with the events: `api:<token prefix>`, `admin-cli`, `system`. */
  actor: string;
  orgId?: string;
  correlationId?: string;
  causationId?: string;
}

export interface Decided<State, Event extends DomainEvent> {
  state: State;
  events: Event[];
  /** Global position of the last event written; absent when the command changed nothing. */
  position?: number;
}

const MAX_ATTEMPTS = 5;

/**
 * Load, decide, append with the expected revision, retry on a concurrent write: how every command of every
 * aggregate is handled. The reply waits until this process's read models have seen the write, so the caller's
 * next read sees it (read-your-writes).
 */
@Injectable()
export class AggregateRepository {
  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    private readonly projections: ProjectionRunner,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number | undefined }> {
    const recorded = await this.eventStore.readStream(stream);
    return {
      state: fold(decider, recorded as unknown as Event[]),
      revision: recorded.length ? recorded[recorded.length - 1].revision : undefined,
    };
  }

  async decide<State, Command, Event extends DomainEvent>(
    stream: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    context: CommandContext,
  ): Promise<Decided<State, Event>> {
    for (let attempt = 1; ; attempt += 1) {
      // A write reads a stream and waits for the disk, synchronously: many writers released at once (a fan-out
      // whose read models just caught up) take turns with the requests instead of running back to back.
      await yieldToRequests();
      const { state, revision } = await this.load(stream, decider);
      const events = decider.decide(command, state);
      if (events.length === 0) return { state, events };
      try {
        const result = await this.eventStore.append(
          stream,
          events.map((event) => ({ type: event.type, data: event.data, metadata: metadataOf(context) })),
          { expectedRevision: revision ?? 'no_stream' },
        );
        await this.projections.waitFor(
          result.position,
          events.map((event) => ({ stream, type: event.type })),
          this.config.readYourWritesTimeoutMs,
        );
        return { state: events.reduce(decider.evolve, state), events, position: result.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** Claims a globally unique key (a store's domain, say) for `owner`; `conflict` when another holds it. */
  async reserve(key: string, owner: string, context: CommandContext, takenMessage: string): Promise<void> {
    await this.decide(reservationStream(key), reservationDecider, { type: 'Reserve', key, owner, takenMessage }, context);
  }

  /** Gives a key back, e.g. when the rest of a command failed after claiming it. */
  async release(key: string, owner: string, context: CommandContext): Promise<void> {
    await this.decide(reservationStream(key), reservationDecider, { type: 'Release', key, owner }, context);
  }
}


const metadataOf = (context: CommandContext): EventMetadata => ({
  actor: context.actor,
  ...(context.orgId ? { orgId: context.orgId } : {}),
  ...(context.correlationId ? { correlationId: context.correlationId } : {}),
  ...(context.causationId ? { causationId: context.causationId } : {}),
});

