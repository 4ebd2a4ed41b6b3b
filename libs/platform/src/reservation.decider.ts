import { conflict, type Decider, type DomainEvent } from '@pss/kernel';

/**
 * A globally unique key (a store's domain) held by one owner. One stream per key, so two concurrent claims
 * conflict on the expected revision on every event-store adapter, without a read-model check.
 */
export type ReservationEvent =
  | DomainEvent<'KeyReserved', { key: string; owner: string }>
  | DomainEvent<'KeyReleased', { key: string; owner: string }>;

export type ReservationCommand =
  | { type: 'Reserve'; key: string; owner: string; takenMessage: string }
  | { type: 'Release'; key: string; owner: string };

export interface ReservationState {
  owner?: string;
}

export const reservationDecider: Decider<ReservationState, ReservationCommand, ReservationEvent> = {
  initialState: () => ({}),
  decide(command, state) {
    if (command.type === 'Reserve') {
      if (state.owner === command.owner) return [];
      if (state.owner) throw conflict(command.takenMessage);
      return [{ type: 'KeyReserved', data: { key: command.key, owner: command.owner } }];
    }
    return state.owner === command.owner ? [{ type: 'KeyReleased', data: { key: command.key, owner: command.owner } }] : [];
  },
  evolve: (_state, event) => (event.type === 'KeyReserved' ? { owner: event.data.owner } : {}),
};

export const reservationStream = (key: string): string => `unique-${key}`;
