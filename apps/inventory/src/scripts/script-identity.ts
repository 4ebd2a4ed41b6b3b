import { deterministicUuid } from '@pss/kernel';
import type { ScriptObservation } from '@pss/contracts';

/** A script's id in a store, from its identity (`scriptKey` of @pss/sdk-contract): the same sighting, the same id. */
export const scriptIdFor = (storeId: string, key: string): string => deterministicUuid('script', storeId, key);

export const scriptHost = (observation: Pick<ScriptObservation, 'inline' | 'src'>): string | null =>
  observation.inline ? null : new URL(observation.src!).hostname.toLowerCase();
