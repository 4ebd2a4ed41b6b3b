import { scriptUrl } from '@pss/contracts';
import type { RuledScript } from '../rules/script-rules';
import type { ScriptState } from './script.decider';

/** The script as rules see it: its content hash if inline, else its host and its URL without query. */
export function ruledScript(state: ScriptState, orgId: string): RuledScript {
  const ids = { orgId, storeId: state.storeId! };
  return state.inline ? { ...ids, inline: true, hash: state.currentHash! } : { ...ids, inline: false, host: state.host!, url: scriptUrl(state.src!) };
}
