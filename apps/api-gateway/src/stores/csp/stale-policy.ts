import { policyAllows } from './policy-allows';
import type { InventoriedScript } from './store-csp';

/** A policy a page was seen sending (the SDK reads its page's headers). */
export interface DeployedPolicy {
  page: string;
  header: 'Content-Security-Policy' | 'Content-Security-Policy-Report-Only';
  value: string;
  observed_at: string;
}

export interface PolicyDrift {
  page: string;
  header: DeployedPolicy['header'];
  observed_at: string;
  stale: boolean;
  /** Scripts the store's policy now lets run that the deployed one stops. */
  blocks_authorized: { script_id: string; src: string }[];
  /** Scripts the store's policy now stops that the deployed one lets run. */
  allows_unauthorized: { script_id: string; src: string; status: string }[];
}

/**
 * Compares, script by script of the inventory, what the deployed policy does with what the store's policy as
 * written now does: a difference either way makes the deployed one stale. Judged against the policy rather than
 * each script's status, so that a script the current policy cannot tell apart from an authorized one (the same
 * file with another query) does not make a freshly deployed policy stale.
 */
export function policyDrift(deployed: DeployedPolicy, current: string, scripts: readonly InventoriedScript[], pageOrigin: string): PolicyDrift {
  const blocksAuthorized: PolicyDrift['blocks_authorized'] = [];
  const allowsUnauthorized: PolicyDrift['allows_unauthorized'] = [];
  for (const script of scripts) {
    const wanted = policyAllows(current, script, pageOrigin);
    if (wanted === policyAllows(deployed.value, script, pageOrigin)) continue;
    if (wanted) blocksAuthorized.push({ script_id: script.id, src: script.src });
    else allowsUnauthorized.push({ script_id: script.id, src: script.src, status: script.status });
  }
  return {
    page: deployed.page,
    header: deployed.header,
    observed_at: deployed.observed_at,
    stale: blocksAuthorized.length + allowsUnauthorized.length > 0,
    blocks_authorized: blocksAuthorized,
    allows_unauthorized: allowsUnauthorized,
  };
}
