import type { SdkStatus } from '@pss/store-reads';

/**
 * Why a store's first page view has not come, as far as the service can tell. Some causes leave a trace it sees
 * (developer mode is the store's own setting; a CSP that reports to the service names the SDK it refused; a
 * rotated key's end is on record); the others (the snippet not first in <head>, a CSP that reports elsewhere, a
 * key mistyped while pasting) leave none, and are only worth checking.
 */
export type InstallCause =
  | { cause: 'developer-mode'; seen: true }
  | { cause: 'csp-blocks-sdk'; seen: true; reports: number }
  | { cause: 'key-rotated'; seen: true; validUntil: string; expired: boolean }
  | { cause: 'snippet-not-first' | 'csp-unreported' | 'key-mistyped'; seen: false };

/** What the install check knows of a store besides its SDK status. */
export interface InstallEvidence {
  sdk: SdkStatus;
  /** Open CSP_VIOLATION alerts of the store whose blocked URI is the SDK's. */
  sdkBlockedReports: number;
  /** The ends of the store's rotated keys, latest first: pages with an old key stop counting after its end. */
  rotatedKeysValidUntil: string[];
}

/** The likely causes, those the service saw first; none once a page view came (unless developer mode pauses it). */
export function installCauses({ sdk, sdkBlockedReports, rotatedKeysValidUntil }: InstallEvidence, now: Date): InstallCause[] {
  const causes: InstallCause[] = [];
  if (sdk.paused) causes.push({ cause: 'developer-mode', seen: true });
  if (sdk.installed) return causes;
  if (sdkBlockedReports > 0) causes.push({ cause: 'csp-blocks-sdk', seen: true, reports: sdkBlockedReports });
  const [latest] = rotatedKeysValidUntil;
  if (latest) causes.push({ cause: 'key-rotated', seen: true, validUntil: latest, expired: Date.parse(latest) <= now.getTime() });
  causes.push({ cause: 'snippet-not-first', seen: false });
  if (sdkBlockedReports === 0) causes.push({ cause: 'csp-unreported', seen: false });
  causes.push({ cause: 'key-mistyped', seen: false });
  return causes;
}

const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The SDK's URL as a CSP report names it when it refused it: the script's URL with or without its query, or its origin alone. */
export function sdkReportPattern(sdkScriptUrl: string): string {
  const url = new URL(sdkScriptUrl);
  return `^${literally(url.origin)}(?:${literally(url.pathname)}(?:\\?.*)?|/)?$`;
}
