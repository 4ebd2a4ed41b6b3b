import 'reflect-metadata';
import type { EventFilter, RecordedEvent } from '@pss/event-store';
import type { Projection, ProjectionContext } from './projection';

/** What the platform looks for among a service's Nest providers to run them as projections. */
export const PROJECTION_METADATA = 'pss:projection';

/** Marks a hand-written provider class as a projection: one that needs injected dependencies. */
export const ReadModelProjection = (): ClassDecorator => (target) => Reflect.defineMetadata(PROJECTION_METADATA, true, target);

/** A read model in the style of Emmett's `projection({ name, canHandle, handle })`. */
export interface ReadModelProjectionDefinition<E extends RecordedEvent> {
  name: string;
  streamPrefixes: string[];
  /** Only where a prefix's streams also hold types the read model never needs, so the store skips them. */
  eventTypes?: string[];
  /** The collections it owns, by name, with the indexes its readers need. */
  collections: Projection['collections'];
  version?: number;
  /** The guard `canHandle<E>` answers (or guards joined by `||`): other events are passed over. */
  canHandle(event: RecordedEvent): event is E;
  /** Must be idempotent, as every handler: `applyOnce` makes it so. */
  evolve(event: E, context: ProjectionContext): Promise<void>;
}

/**
 * A projection class to extend, `class StoreProjection extends readModelProjection({ … }) {}`: a Nest provider
 * with no dependencies, found by the platform like one marked `@ReadModelProjection()`. Abstract so that it is
 * extended, never used as it is: the snapshot fingerprint reads the extending class's source, which holds the
 * definition, and so sees a change to `evolve`.
 */
export function readModelProjection<E extends RecordedEvent>(definition: ReadModelProjectionDefinition<E>): abstract new () => Projection {
  const { name, streamPrefixes, eventTypes, collections, version, canHandle, evolve } = definition;

  @ReadModelProjection()
  abstract class DefinedProjection implements Projection {
    readonly name = name;
    readonly filter: EventFilter = eventTypes ? { streamPrefixes, eventTypes } : { streamPrefixes };
    readonly collections = collections;
    readonly version = version;

    async handle(event: RecordedEvent, context: ProjectionContext): Promise<void> {
      if (canHandle(event)) await evolve(event, context);
    }
  }
  return DefinedProjection;
}
