import type { StoreSightings } from '@pss/contracts';
import type { DomainEvent } from '@pss/kernel';

/**
 * Repeated sightings of known scripts are not an event each: the gateway counts them (its SightingBuffer) and
 * they are recorded once per store per flush window as one `SightingsFlushed` event (last_seen_at, counters,
 * sessions, SDK activity).
 */
export type SightingsEvent = DomainEvent<'SightingsFlushed', StoreSightings>;

export const sightingsStream = (storeId: string): string => `sightings-${storeId}`;

/**
 * A window with an id has a stream of its own, written once (expected: no stream): a retried flush or a redelivered
 * command finds it written. Same prefix, so every reader of `sightings-` reads it.
 */
export const sightingsWindowStream = (storeId: string, windowId: string): string => `sightings-${storeId}-${windowId}`;
