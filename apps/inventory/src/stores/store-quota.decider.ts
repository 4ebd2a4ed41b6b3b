import { DomainError, type Decider, type DomainEvent } from '@pss/kernel';

/**
 * How many active stores an organization holds, as its own small aggregate: two stores created at once
 * cannot both take the last slot, because both append to this one stream with an expected revision.
 * Suspended stores give their slot back.
 */
export type StoreQuotaEvent =
  | DomainEvent<'StoreSlotTaken', { orgId: string; storeId: string }>
  | DomainEvent<'StoreSlotFreed', { orgId: string; storeId: string }>;

export type StoreQuotaCommand =
  | { type: 'TakeStoreSlot'; orgId: string; storeId: string; limit: number; plan: string }
  | { type: 'FreeStoreSlot'; orgId: string; storeId: string };

export interface StoreQuotaState {
  storeIds: string[];
}

export const storeQuotaDecider: Decider<StoreQuotaState, StoreQuotaCommand, StoreQuotaEvent> = {
  initialState: () => ({ storeIds: [] }),
  decide(command, state) {
    const holds = state.storeIds.includes(command.storeId);
    if (command.type === 'FreeStoreSlot') {
      return holds ? [{ type: 'StoreSlotFreed', data: { orgId: command.orgId, storeId: command.storeId } }] : [];
    }
    if (holds) return [];
    if (state.storeIds.length >= command.limit) {
      throw new DomainError(
        'plan_limit',
        `The ${command.plan} plan includes ${command.limit} store${command.limit === 1 ? '' : 's'}; upgrade the plan or suspend a store`,
      );
    }
    return [{ type: 'StoreSlotTaken', data: { orgId: command.orgId, storeId: command.storeId } }];
  },
  evolve(state, event) {
    return event.type === 'StoreSlotTaken'
      ? { storeIds: [...state.storeIds, event.data.storeId] }
      : { storeIds: state.storeIds.filter((id) => id !== event.data.storeId) };
  },
};

export const storeQuotaStream = (orgId: string): string => `quota-${orgId}`;
