import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DomainError, yieldToRequests, type Clock, type Decider, type DomainEvent, type LruCache } from '@pss/kernel';
import {
  EVENT_STORE,
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
} from '@pss/event-store';
import { ProjectionRunner, type Projection, type ProjectionContext } from '@pss/projections';
import { MemoryReadStore, READ_STORE, type Document, type ReadStore } from '@pss/read-store';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { reservationDecider, reservationStream } from './reservation.decider';

export interface CommandContext {
  /** Actor label recorded with the events: `api:<token prefix>`, `admin-cli`, `system`. */
  actor: string;
  orgId?: string;
  correlationId?: string;
  causationId?: string;
  /**
   * The command's deadline (ISO 8601), from its bus payload's `command.deadline`: read-your-writes waits end before
   * it, so the reply still reaches the caller. Work no caller waits for has none.
   */
  deadline?: string;
  /** The bus command's id, for creates that must have one effect however often it is delivered. */
  commandId?: string;
  /**
   * `false` for background work no caller reads back (a policy's decision behind a fact): its write does not wait
   * for the read models, so a chain of such decisions costs one commit each, not a commit and a projection round.
   */
  readYourWrites?: boolean;
}

export interface Decided<State, Event extends DomainEvent> {
  state: State;
  events: Event[];
  /** Global position of the last event written; absent when the command changed nothing. */
  position?: number;
}

const MAX_ATTEMPTS = 20;
/** Writers that met a concurrent write wait up to this many ms times their attempt, at random, before the next. */
const CONFLICT_BACKOFF_MS = 5;
/** Read-your-writes waits end this long before the command's deadline: time for the reply to travel back. */
const REPLY_MARGIN_MS = 500;
/** How often a duplicate delivery looks whether the first delivery of its create has finished. */
const EARLIER_DELIVERY_POLL_MS = 20;
/**
 * A claim this many command timeouts old whose create has not finished was left by a process that died in the
 * middle (a crash, an OOM, an append that timed out): no delivery still runs it, so the next one finishes it.
 */
const ABANDONED_AFTER_TIMEOUTS = 2;

/** What `claimCommand` found. */
export interface CommandClaim {
  /** The resource the command creates: this delivery's new id, or the one an earlier delivery chose. */
  owner: string;
  /** An earlier delivery claimed the command. */
  earlier: boolean;
  /**
   * The earlier claim is older than any delivery still running it could be: the caller completes the create
   * itself, with `owner`, each step of it idempotent, rather than wait for a delivery that died.
   */
  abandoned: boolean;
}

/**
 * Load, decide, append with the expected revision, retry on a concurrent write: how every command of every
 * aggregate is handled. The reply waits, within the command's deadline, until this process's read models have
 * seen the write, so the caller's next read sees it (read-your-writes); it is answered from the decided state
 * (`written`) whether or not they got there in time.
 */
@Injectable()
export class AggregateRepository {
  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    private readonly projections: ProjectionRunner,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The stream's state. With `folded`, only the events after the remembered state are read: a stream that grows
   * by one event per decision (an alert's occurrences) costs its new events, not its whole length, each time.
   */
  async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
    folded?: FoldedStates<State>,
  ): Promise<{ state: State; revision: number | undefined }> {
    const known = folded?.get(stream);
    const recorded = await this.eventStore.readStream(stream, known ? { fromRevision: known.revision + 1 } : undefined);
    const state = (recorded as unknown as Event[]).reduce((current, event) => decider.evolve(current, event), known ? known.state : decider.initialState());
    const revision = recorded.length ? recorded[recorded.length - 1].revision : known?.revision;
    if (folded && revision !== undefined) folded.set(stream, { state, revision });
    return { state, revision };
  }

  async decide<State, Command, Event extends DomainEvent>(
    stream: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    context: CommandContext,
    /** States this caller keeps between decisions (see `load`); the decided state is remembered in it. */
    folded?: FoldedStates<State>,
  ): Promise<Decided<State, Event>> {
    for (let attempt = 1; ; attempt += 1) {
      // A write reads a stream and waits for the disk, synchronously: many writers released at once (a fan-out
      // whose read models just caught up) take turns with the requests instead of running back to back.
      await yieldToRequests();
      const { state, revision } = await this.load(stream, decider, folded);
      const events = decider.decide(command, state);
      if (events.length === 0) return { state, events };
      try {
        const result = await this.eventStore.append(
          stream,
          events.map((event) => ({ type: event.type, data: event.data, metadata: metadataOf(context) })),
          { expectedRevision: revision ?? 'no_stream' },
        );
        if (context.readYourWrites !== false) {
          await this.projections.waitFor(
            result.position,
            events.map((event) => ({ stream, type: event.type })),
            this.readYourWritesBudgetMs(context),
          );
        }
        const decided = events.reduce(decider.evolve, state);
        folded?.set(stream, { state: decided, revision: result.nextRevision });
        return { state: decided, events, position: result.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        // A burst of writers on one stream (an organization's store quota under a burst of creates, each delivered
        // twice): one wins per round. Spread out, they get through; past the attempts it is a retryable 503.
        if (attempt >= MAX_ATTEMPTS) throw new DomainError('service_unavailable', 'Too many concurrent changes to the same resource; retry shortly');
        await new Promise((resolve) => setTimeout(resolve, Math.random() * CONFLICT_BACKOFF_MS * attempt));
      }
    }
  }

  /** Claims a globally unique key (a store's domain, say) for `owner`; `conflict` when another holds it. */
  async reserve(key: string, owner: string, context: CommandContext, takenMessage: string): Promise<void> {
    await this.decide(reservationStream(key), reservationDecider, { type: 'Reserve', key, owner, takenMessage }, context);
  }

  /**
   * Claims a command id for the resource `owner` it creates, once. `earlier` when the command had been claimed
   * already: a redelivery, or a client's retry (same Idempotency-Key, same command id), which then answers the
   * resource `owner` of the earlier delivery instead of creating another, or completes it when it was `abandoned`.
   */
  async claimCommand(commandId: string, owner: string, context: CommandContext): Promise<CommandClaim> {
    const key = commandKey(commandId);
    try {
      const { events } = await this.decide(reservationStream(key), reservationDecider, { type: 'Reserve', key, owner, takenMessage: 'This command is already being handled' }, context);
      return { owner, earlier: events.length === 0, abandoned: false };
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
      const held = await this.holder(key);
      if (!held) throw error;
      return { owner: held.owner, earlier: true, abandoned: held.abandoned };
    }
  }

  /**
   * Who holds `key`, and whether the hold is as old as only a create that died midway leaves it (`abandoned`): the
   * caller, knowing whether the holder's resource exists, may then take the key over.
   */
  async holder(key: string): Promise<{ owner: string; abandoned: boolean } | undefined> {
    const recorded = await this.eventStore.readStream(reservationStream(key));
    const reserved = recorded[recorded.length - 1];
    if (reserved?.type !== 'KeyReserved') return undefined;
    return { owner: (reserved.data as { owner: string }).owner, abandoned: this.isAbandoned(reserved.createdAt) };
  }

  /** Whether a hold taken at `since` (ISO 8601) is as old as only a create that died midway leaves it. */
  isAbandoned(since: string): boolean {
    return this.clock.now().getTime() - Date.parse(since) > ABANDONED_AFTER_TIMEOUTS * this.config.requestTimeoutMs;
  }

  /** Gives a command's claim back: its command was refused, so running it again must decide again. */
  async releaseCommand(commandId: string, owner: string, context: CommandContext): Promise<void> {
    await this.release(commandKey(commandId), owner, context);
  }

  /**
   * The state of what an earlier delivery of a command created (`claimCommand` said `earlier`), once this
   * process's read models have it (within the command's budget). A duplicate delivered while the first is still
   * at work waits for it within the same budget, so whichever reply reaches the caller first is the resource; 503
   * only when the first has not finished by then (the caller's retry gets past it).
   */
  async createdEarlier<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
    isComplete: (state: State) => boolean,
    context: CommandContext,
  ): Promise<State> {
    const until = Date.now() + this.readYourWritesBudgetMs(context);
    let { state } = await this.load(stream, decider);
    while (!isComplete(state) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, EARLIER_DELIVERY_POLL_MS));
      ({ state } = await this.load(stream, decider));
    }
    if (!isComplete(state)) throw new DomainError('service_unavailable', 'The same request is still being handled; retry shortly');
    await this.settled(stream, context);
    return state;
  }

  /** Waits (within the command's budget) until this process's read models have seen every event of `stream`. */
  private async settled(stream: string, context: CommandContext): Promise<void> {
    const recorded = await this.eventStore.readStream(stream);
    if (recorded.length === 0) return;
    const events = recorded.map(({ type }) => ({ stream, type }));
    await this.projections.waitFor(recorded[recorded.length - 1].position, events, this.readYourWritesBudgetMs(context));
  }

  /**
   * The read models `projection` keeps, as the writes to `stream` left them, for a command's answer: the live
   * read store once this process's projections have the stream's last write (it also carries what other streams
   * add: counters, last use); else `projection` run over the stream's own events on a scratch store: the decided
   * state in the read models' shape. An acknowledged write is answered with its resource, never a 404 or 503
   * because a read model is slow.
   */
  async readModelsAfter(stream: string, projection: Projection): Promise<ReadStore> {
    const recorded = await this.eventStore.readStream(stream);
    const last = recorded[recorded.length - 1];
    if (!last || (await this.projections.waitFor(last.position, [last], 0))) return this.readStore;
    const scratch = new MemoryReadStore();
    const context: ProjectionContext = { collection: (name) => scratch.collection(name) };
    for (const event of recorded) await projection.handle(event, context);
    return scratch;
  }

  /** Document `id` of `collection` as the writes to `stream` left it (readModelsAfter); null when they removed it. */
  async written<T extends Document>(stream: string, projection: Projection, collection: string, id: string): Promise<T | null> {
    return (await this.readModelsAfter(stream, projection)).collection<T>(collection).findOne({ _id: id });
  }

  /** Gives a key back, e.g. when the rest of a command failed after claiming it. */
  async release(key: string, owner: string, context: CommandContext): Promise<void> {
    await this.decide(reservationStream(key), reservationDecider, { type: 'Release', key, owner }, context);
  }

  /** READ_YOUR_WRITES_TIMEOUT_MS, cut to what is left of the command's deadline. */
  private readYourWritesBudgetMs({ deadline }: CommandContext): number {
    const budget = this.config.readYourWritesTimeoutMs;
    if (!deadline) return budget;
    return Math.max(0, Math.min(budget, Date.parse(deadline) - Date.now() - REPLY_MARGIN_MS));
  }
}

/** States folded from streams, by stream, each with the revision of the last event folded into it. */
export type FoldedStates<State> = LruCache<string, { state: State; revision: number }>;

const commandKey = (commandId: string): string => `command:${commandId}`;

const metadataOf = (context: CommandContext): EventMetadata => ({
  actor: context.actor,
  ...(context.orgId ? { orgId: context.orgId } : {}),
  ...(context.correlationId ? { correlationId: context.correlationId } : {}),
  ...(context.causationId ? { causationId: context.causationId } : {}),
});

