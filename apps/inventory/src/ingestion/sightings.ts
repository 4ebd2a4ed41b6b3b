import type { StoreSightings } from '@pss/contracts';
import type { DomainEvent } from '@pss/kernel';

/**
 * Repeated sightings of known scripts are not an event each: the gateway counts them (its SightingBuffer) and
 * they are recorded once per store per flush window as one `SightingsFlushed` event (last_seen_at, counters,
 * sessions, SDK activity).
 */
export type SightingsEvent = DomainEvent<'SightingsFlushed', StoreSightings>;

export const sightingsStream = (storeId: string): string => `sightings-${storeId}`;
