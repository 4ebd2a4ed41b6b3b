import { scriptUrl, type ConnectionDocument, type ConnectionVia } from '@pss/contracts';

/**
 * A store's Content-Security-Policy and SRI attributes, written from its inventory: what is authorized runs,
 * anything else the browser refuses. Pure: no framework, no I/O (the gateway reads the inventory and passes it in).
 */

export type CspMode = 'report-only' | 'enforce';
export const CSP_MODES: readonly CspMode[] = ['report-only', 'enforce'];

/** The reporting endpoint's name in `Reporting-Endpoints` and `report-to`. */
export const CSP_REPORT_GROUP = 'pss-csp';

/** What of a script the policy needs: an inventory entry as the read model holds it. */
export interface InventoriedScript {
  id: string;
  src: string;
  inline: boolean;
  status: string;
  current_hash: string | null;
  authorized_hash: string | null;
  first_seen_at: string;
  last_seen_at: string;
  last_hash_change_at: string | null;
  sightings: number;
  sessions_count: number;
}

export interface CspInputs {
  mode: CspMode;
  scripts: readonly InventoriedScript[];
  /** The origin `sdk.js`, `/sdk/v1/config` and the SDK's batches are on. */
  sdkOrigin: string;
  /** `sha256-…` of the install loader's inline script. */
  loaderHash: string;
  /** The store's CSP report endpoint (`/sdk/v1/csp?key=…`). */
  reportUrl: string;
  /** Authorized destinations of the page's connections (`connectSources`). */
  connections: readonly string[];
}

export interface Csp {
  header: 'Content-Security-Policy' | 'Content-Security-Policy-Report-Only';
  value: string;
  reporting_endpoints: { header: 'Reporting-Endpoints'; value: string };
}

/** The policy: script-src from authorized scripts, the SDK and its loader; connect-src; where to report. */
export function storeCsp({ mode, scripts, sdkOrigin, loaderHash, reportUrl, connections }: CspInputs): Csp {
  const authorized = scripts.filter(isAuthorized);
  const sources = unique([
    sdkOrigin,
    `'${loaderHash}'`,
    // With its path, without its query: the file alone, so a blocked script of a shared host stays blocked.
    ...authorized.filter((script) => !script.inline).map((script) => scriptUrl(script.src)),
    ...authorized.flatMap((script) => (script.inline && script.authorized_hash ? [`'${script.authorized_hash}'`] : [])),
  ]);
  const directives = [
    `script-src ${sources.join(' ')}`,
    `connect-src 'self' ${unique([sdkOrigin, ...connections]).join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    `report-uri ${reportUrl}`,
    `report-to ${CSP_REPORT_GROUP}`,
  ];
  return {
    header: mode === 'enforce' ? 'Content-Security-Policy' : 'Content-Security-Policy-Report-Only',
    value: directives.join('; '),
    reporting_endpoints: { header: 'Reporting-Endpoints', value: `${CSP_REPORT_GROUP}="${reportUrl}"` },
  };
}

/** Authorized, and not since changed away from what was authorized (a changed script runs only once re-approved). */
/** How a page reaches an origin that `connect-src` governs; images and forms have directives of their own. */
const CONNECT_SRC_VIAS: readonly ConnectionVia[] = ['fetch', 'xhr', 'beacon', 'websocket'];

/**
 * The authorized destinations: origins the pages fetched, posted or opened a socket to from a script that is
 * authorized and unchanged. A destination only some other script reached, or none the SDK could name, is left
 * out: the dry run of an enforced policy is where the shop finds it.
 */
export function connectSources(connections: readonly Pick<ConnectionDocument, 'origin' | 'via' | 'initiators'>[], scripts: readonly InventoriedScript[]): string[] {
  const authorized = new Set(scripts.filter(isAuthorized).map((script) => script.id));
  return connections
    .filter((connection) => connection.via.some((via) => CONNECT_SRC_VIAS.includes(via)) && connection.initiators.some((initiator) => authorized.has(initiator.script_id)))
    .map((connection) => connection.origin)
    .sort();
}

function isAuthorized(script: InventoriedScript): boolean {
  return script.status === 'authorized' && (script.authorized_hash === null || script.current_hash === null || script.current_hash === script.authorized_hash);
}

export interface BrokenView {
  script_id: string;
  src: string;
  /** Why the policy stops it. */
  reason: string;
  sightings: number;
  sessions: number;
  last_seen_at: string;
}

/**
 * The dry run: scripts seen in the window that the policy would have stopped, with how many sightings and sessions
 * (page views, as the inventory counts them) they were in, and why.
 */
export function dryRun(scripts: readonly InventoriedScript[], since: Date): BrokenView[] {
  return scripts
    .filter((script) => Date.parse(script.last_seen_at) >= since.getTime() && !isAuthorized(script))
    .map((script) => ({
      script_id: script.id,
      src: script.src,
      reason: reasonStopped(script),
      sightings: script.sightings,
      sessions: script.sessions_count,
      last_seen_at: script.last_seen_at,
    }));
}

function reasonStopped(script: InventoriedScript): string {
  const what = script.inline ? 'its hash is not in script-src' : 'its URL is not in script-src';
  if (script.status === 'authorized') return `its content changed since it was authorized: ${what}`;
  return `it is ${script.status.replace('_', ' ')}, not authorized: ${what}`;
}

export interface IntegrityAttribute {
  script_id: string;
  src: string;
  integrity: string;
  /** Ready to paste. */
  tag: string;
}

/**
 * `integrity` for each authorized external script whose SHA-384 has not changed since `stableSince`, and the
 * `Integrity-Policy` header once every authorized external script has one (the browser then refuses a script
 * without `integrity`).
 */
export function integrityAttributes(scripts: readonly InventoriedScript[], stableSince: Date): { scripts: IntegrityAttribute[]; integrity_policy: { header: 'Integrity-Policy'; value: string } | null } {
  const external = scripts.filter((script) => isAuthorized(script) && !script.inline);
  const stable = external.filter((script) => {
    const hash = script.current_hash;
    const since = Date.parse(script.last_hash_change_at ?? script.first_seen_at);
    return hash !== null && hash.startsWith('sha384-') && since <= stableSince.getTime();
  });
  const attributes = stable.map((script) => ({
    script_id: script.id,
    src: script.src,
    integrity: script.current_hash!,
    tag: `<script src="${escapeAttribute(script.src)}" integrity="${script.current_hash}" crossorigin="anonymous"></script>`,
  }));
  const everyOne = external.length > 0 && attributes.length === external.length;
  return { scripts: attributes, integrity_policy: everyOne ? { header: 'Integrity-Policy', value: `blocked-destinations=(script), endpoints=(${CSP_REPORT_GROUP})` } : null };
}

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const unique = (values: string[]): string[] => [...new Set(values)];
