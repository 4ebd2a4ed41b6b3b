/** Read model `rules` (owner: inventory; readers: api-gateway for GET /rules and the SDK config). */
export const RULES = 'rules';

export type RuleType = 'block' | 'allow';
/** `domain`: a host and its subdomains; `url`: one script URL; `hash`: an SRI hash (inline scripts). */
export type RuleTarget = 'domain' | 'url' | 'hash';

export interface RuleDocument {
  _id: string;
  org_id: string;
  store_id: string;
  type: RuleType;
  target: RuleTarget;
  value: string;
  label: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}
