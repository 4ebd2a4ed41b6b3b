import type { ScriptState } from './script.decider';

/** Inline scripts are blocked by content hash, external ones by domain (the spec); the rule keeps its label. */
export function blockTarget(state: ScriptState, orgId: string) {
  return state.inline
    ? { orgId, storeId: state.storeId!, target: 'hash' as const, value: state.currentHash! }
    : { orgId, storeId: state.storeId!, target: 'domain' as const, value: state.host! };
}
