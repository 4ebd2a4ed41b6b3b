import { externalRules, scriptUrl, stopsExternal, type BlockReach, type PageRule, type ScriptStatus } from '@pss/contracts';

/** At most this many of each list, the most recently seen first: a tracking host may serve one script per ad. */
export const MOST_REACHED = 100;

/** A script a domain rule covers, as the read model has it (`src` normalized, `host` in lower case). */
export interface CoveredScript {
  _id: string;
  src: string;
  host: string;
  status: ScriptStatus;
}

/**
 * Of the scripts a new domain rule covers, the ones the SDK will stop and the ones it spares, decided as the SDK
 * decides (libs/contracts page-rules.ts) with the store's rules after the block: an authorized script's URL is an
 * allow, and so is an allow rule on its URL or on a more specific domain.
 */
export function blockReach(covered: readonly CoveredScript[], rules: { block: PageRule[]; allow: PageRule[] }): BlockReach {
  const authorized = covered.filter((script) => script.status === 'authorized').map((script) => scriptUrl(script.src));
  const page = externalRules(rules, authorized);
  const reach: BlockReach = { also_blocks: [], spared: [] };
  for (const script of covered) {
    const list = stopsExternal(page, script.host, script.src) ? reach.also_blocks : reach.spared;
    if (list.length < MOST_REACHED) list.push({ id: script._id, src: script.src, status: script.status });
  }
  return reach;
}
