/**
 * Read model `deployed_csp` (owner: inventory's SDK ingestion; reader: GET /stores/{id}/status): the
 * Content-Security-Policy headers each page of a store last answered the SDK's read of its headers with, so the
 * service can tell when the policy a shop deployed no longer matches its inventory (docs/csp.md).
 */
export const DEPLOYED_CSP = 'deployed_csp';

export interface DeployedCspDocument {
  /** `<store_id>:<page path>`. */
  _id: string;
  org_id: string;
  store_id: string;
  page: string;
  /** `Content-Security-Policy`, null when the page sends none. */
  enforced: string | null;
  /** `Content-Security-Policy-Report-Only`, null when the page sends none. */
  report_only: string | null;
  observed_at: string;
}

export const deployedCspId = (storeId: string, page: string): string => `${storeId}:${page}`;
