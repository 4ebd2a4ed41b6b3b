import type { Decider, DomainEvent } from '@pss/kernel';

/**
 * What the notifier knows of an organization for its default e-mail channels: the owner's address and its
 * stores. Inventory announces the organization and its stores under different keys, so on Kafka they may arrive
 * in either order; one stream per organization remembers both until both are known.
 */
export type OwnerMailEvent =
  | DomainEvent<'OwnerEmailLearned', { orgId: string; email: string }>
  | DomainEvent<'StoreLearned', { orgId: string; storeId: string }>;

export type OwnerMailCommand = { type: 'LearnOwnerEmail'; orgId: string; email: string } | { type: 'LearnStore'; orgId: string; storeId: string };

export interface OwnerMailState {
  email?: string;
  stores: string[];
}

export const ownerMailDecider: Decider<OwnerMailState, OwnerMailCommand, OwnerMailEvent> = {
  initialState: () => ({ stores: [] }),
  decide(command, state) {
    if (command.type === 'LearnOwnerEmail') {
      return state.email ? [] : [{ type: 'OwnerEmailLearned', data: { orgId: command.orgId, email: command.email } }];
    }
    return state.stores.includes(command.storeId) ? [] : [{ type: 'StoreLearned', data: { orgId: command.orgId, storeId: command.storeId } }];
  },
  evolve: (state, event) =>
    event.type === 'OwnerEmailLearned' ? { ...state, email: event.data.email } : { ...state, stores: [...state.stores, event.data.storeId] },
};

export const ownerMailStream = (orgId: string): string => `ownermail-${orgId}`;
