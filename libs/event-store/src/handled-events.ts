import type { DomainEvent } from '@pss/kernel';
import type { RecordedEvent } from './event-store.port';

/** A recorded event read as one of the domain events `E`: its type names which, and so what its data holds. */
export type RecordedOf<E extends DomainEvent> = E extends DomainEvent ? RecordedEvent<E['data']> & { type: E['type'] } : never;

/**
 * The events a reader handles (a projection, a publisher), named once each: the record must list every type of
 * `E` and nothing else, so a new event type fails to compile until its readers say they handle it. Answers the
 * guard that narrows a recorded event to them, in place of a cast.
 */
export function canHandle<E extends DomainEvent>(types: Record<E['type'], true>): (event: RecordedEvent) => event is RecordedOf<E> {
  const handled = new Set<string>(Object.keys(types));
  return (event: RecordedEvent): event is RecordedOf<E> => handled.has(event.type);
}
