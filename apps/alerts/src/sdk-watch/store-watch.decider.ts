import type { Decider, DomainEvent } from '@pss/kernel';

/**
 * Which stores the SDK-silent watch looks at: from their creation to their suspension (a suspended store's SDK
 * is expected to fall silent). One small stream per store.
 */
export type StoreWatchEvent =
  | DomainEvent<'StoreWatchStarted', { storeId: string; orgId: string; domain: string; at: string }>
  | DomainEvent<'StoreWatchStopped', { storeId: string; orgId: string; at: string }>;

export type StoreWatchCommand =
  | { type: 'StartWatching'; storeId: string; orgId: string; domain: string; at: string }
  | { type: 'StopWatching'; storeId: string; orgId: string; at: string };

export interface StoreWatchState {
  started: boolean;
  stopped: boolean;
}

export const storeWatchDecider: Decider<StoreWatchState, StoreWatchCommand, StoreWatchEvent> = {
  initialState: () => ({ started: false, stopped: false }),
  decide(command, state) {
    if (command.type === 'StartWatching') {
      const { storeId, orgId, domain, at } = command;
      return state.started ? [] : [{ type: 'StoreWatchStarted', data: { storeId, orgId, domain, at } }];
    }
    const { storeId, orgId, at } = command;
    return state.stopped ? [] : [{ type: 'StoreWatchStopped', data: { storeId, orgId, at } }];
  },
  evolve: (state, event) => (event.type === 'StoreWatchStarted' ? { ...state, started: true } : { ...state, stopped: true }),
};

export const storeWatchStream = (storeId: string): string => `sdkwatch-${storeId}`;

/**
 * When the store's SDK last reported, recorded at most every SDK_ACTIVITY_RECORDING_MS (inventory reports it
 * every few seconds; the watch needs hours). A fact, appended without a decision.
 */
export type SdkActivityEvent = DomainEvent<'SdkActivityRecorded', { storeId: string; orgId: string; lastEventAt: string }>;

export const sdkActivityStream = (storeId: string): string => `sdkseen-${storeId}`;

/** How stale the recorded SDK activity may be: the watch waits this much longer than 24 h before it alerts. */
export const SDK_ACTIVITY_RECORDING_MS = 15 * 60 * 1000;
