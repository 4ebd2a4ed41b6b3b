import type { Decider, DomainEvent } from '@pss/kernel';

/**
 * What the notifier knows of an organization for its default e-mail channels: the owner's address, its stores and
 * which of them are suspended. Inventory announces these on different topics, so on Kafka they arrive in any
 * order (a store's suspension before its creation, too); one stream per organization remembers each fact until
 * the others are known.
 */
export type OwnerMailEvent =
  | DomainEvent<'OwnerEmailLearned', { orgId: string; email: string }>
  | DomainEvent<'StoreLearned', { orgId: string; storeId: string }>
  | DomainEvent<'StoreSuspensionLearned', { orgId: string; storeId: string }>;

export type OwnerMailCommand =
  | { type: 'LearnOwnerEmail'; orgId: string; email: string }
  | { type: 'LearnStore'; orgId: string; storeId: string }
  | { type: 'LearnStoreSuspended'; orgId: string; storeId: string };

export interface OwnerMailState {
  email?: string;
  stores: string[];
  /** Suspension is final: a store's channel made after it is made inactive. */
  suspended: string[];
}

export const ownerMailDecider: Decider<OwnerMailState, OwnerMailCommand, OwnerMailEvent> = {
  initialState: () => ({ stores: [], suspended: [] }),
  decide(command, state) {
    switch (command.type) {
      case 'LearnOwnerEmail':
        return state.email ? [] : [{ type: 'OwnerEmailLearned', data: { orgId: command.orgId, email: command.email } }];
      case 'LearnStore':
        return state.stores.includes(command.storeId) ? [] : [{ type: 'StoreLearned', data: { orgId: command.orgId, storeId: command.storeId } }];
      case 'LearnStoreSuspended':
        return state.suspended.includes(command.storeId)
          ? []
          : [{ type: 'StoreSuspensionLearned', data: { orgId: command.orgId, storeId: command.storeId } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'OwnerEmailLearned':
        return { ...state, email: event.data.email };
      case 'StoreLearned':
        return { ...state, stores: [...state.stores, event.data.storeId] };
      case 'StoreSuspensionLearned':
        return { ...state, suspended: [...state.suspended, event.data.storeId] };
    }
  },
};

export const ownerMailStream = (orgId: string): string => `ownermail-${orgId}`;
