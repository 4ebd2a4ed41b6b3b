import type { SdkConfigView } from '@pss/contracts/read-models/store';
import type { PageRule } from '@pss/contracts/sdk/page-rules';
import { forget, remember, remembered } from './tab-store';

/** What `GET /sdk/v1/config` answers (apps/api-gateway/src/sdk/sdk-config.ts). */
export interface SdkConfig {
  paused: boolean;
  config: Omit<SdkConfigView, 'updated_at'>;
  rules: { block: PageRule[]; allow: PageRule[] };
  /** The store's authorized external scripts, without query: allows that beat a block of their host. */
  authorized_urls?: string[];
  /** Only in the keyed `sdk.js`: the URL tags (url-tag.ts) of scripts whose CORS re-fetch was only ever refused. */
  cors_refused?: string[];
}

const CONFIG_TIMEOUT_MS = 10_000;
const cacheName = (key: string): string => `pss.cfg.${key}`;

/** What the cache held when read (undefined: not read yet), so an unchanged config is not written again. */
let cachedText: string | null | undefined;

export const enforcing = (config: SdkConfig): boolean => !config.paused && config.config.mode === 'block';

/**
 * The config of the last page view (any tab), so block rules act from the first instant of the next page view,
 * before the fresh config arrives. Only a block-mode config is kept: in monitor mode nothing has to be decided
 * before the fresh config comes, and an empty cache costs one read and no write.
 */
export function cachedConfig(key: string): SdkConfig | undefined {
  try {
    if (cachedText === undefined) cachedText = remembered('local', cacheName(key));
    return cachedText ? (JSON.parse(cachedText) as SdkConfig) : undefined;
  } catch {
    return undefined;
  }
}

/** Always revalidated (`no-cache`: a 304 when unchanged), so a new rule reaches the very next page view. */
export async function fetchConfig(base: string, key: string): Promise<SdkConfig | undefined> {
  // A service that does not answer within CONFIG_TIMEOUT_MS counts as down: the SDK goes on with what it knew.
  const abort = typeof AbortController === 'function' ? new AbortController() : undefined;
  if (abort) setTimeout(() => abort.abort(), CONFIG_TIMEOUT_MS);
  const response = await fetch(`${base}config?key=${encodeURIComponent(key)}`, { cache: 'no-cache', credentials: 'omit', mode: 'cors', signal: abort && abort.signal });
  if (!response.ok) return undefined;
  const text = await response.text();
  const config = JSON.parse(text) as SdkConfig;
  const keep = enforcing(config) ? text : null;
  if (cachedText === undefined) cachedConfig(key);
  if (keep !== cachedText) {
    if (keep) remember('local', cacheName(key), keep);
    else forget('local', cacheName(key));
    cachedText = keep;
  }
  return config;
}
