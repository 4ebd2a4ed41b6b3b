/** Where the dashboard's pages report what their policy blocked (dashboard-routes.ts logs each report). */
export const CSP_REPORT_PATH = '/dashboard/csp-reports';

/**
 * The policy, word for word, plus where violations go. A security product's own console runs under the
 * strictest one: no inline script, style or handler, and no string reaching a script sink (Trusted Types).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "require-trusted-types-for 'script'",
  `report-uri ${CSP_REPORT_PATH}`,
  'report-to dashboard-csp',
].join('; ');

/** Headers of every dashboard answer, pages, assets and errors alike. */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': DASHBOARD_CSP,
    'reporting-endpoints': `dashboard-csp="${CSP_REPORT_PATH}"`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Invitation links carry their token in the path: no page of the dashboard tells another site where it was.
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/** A page that shows a secret (recovery codes, a new token) or a person's data: never stored by the browser or a proxy. */
export const NO_STORE = { 'cache-control': 'no-store' };
