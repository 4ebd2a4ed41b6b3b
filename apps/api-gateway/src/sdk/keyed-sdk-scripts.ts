import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import type { StoreDocument } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import type { Frozen } from '@pss/read-store';
import { EMBEDDED_CONFIG_NAME } from '@pss/sdk-contract';
import { COMPILE_HINT, SdkBundle, type SdkRelease, type ServedScript } from './sdk-bundle';
import { SdkConfigDocument, type PageConfig } from './sdk-config';

/**
 * A built script is dropped when a fact says its store's decisions or scripts changed (`changed`). Kept at most this
 * long otherwise: what no fact announces (a script leaving the `cors_refused` hint once hashed) is refreshed as often
 * as browsers re-check the script.
 */
const KEPT_FOR_MS = 300_000;
/**
 * After a change, builds are served but not kept this long: the fact may reach a replica before the read model
 * it builds from has the change, and a build from the old one must not be kept for minutes.
 */
const SETTLING_MS = 1_000;
/** About 25 KB each (the script and its gzip): at most 25 MB, for the stores whose scripts were built last. */
const MOST_STORES_KEPT = 1_000;

/** The store's release with its page config declared around it, where `embeddedConfig()` in the SDK finds it. */
export function withPageConfig(release: SdkRelease, config: PageConfig): string {
  // Valid JSON is a valid expression, but for two line terminators older engines refuse inside a string.
  const json = JSON.stringify(config).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  // The bundle's "use strict" stays a directive only at the top of the script, not inside the block.
  const strict = '"use strict";';
  const body = release.iife.startsWith(strict) ? release.iife.slice(strict.length) : release.iife;
  return `${COMPILE_HINT}\n${strict}{const ${EMBEDDED_CONFIG_NAME}=${json};\n${body}}\n`;
}

/**
 * What `sdk.js?key=…` serves (the install snippets' URL): the release of the store's channel with the store's
 * SDK config inside, so a page view starts without asking for it (one request and a storage read fewer on the
 * page's main thread), and the tags of the scripts not worth re-fetching for their hash (`corsRefused`). Its
 * bytes differ per store and per config: shops who pin with `integrity` use the
 * versioned copy, which asks for the config as it loads. Built once per store, again after each change.
 */
@Injectable()
export class KeyedSdkScripts {
  /** Without `script`: the store changed moments ago and what is built until `until` is not kept. */
  private readonly built = new Map<string, { script?: ServedScript; until: number }>();

  constructor(
    @Inject(SdkBundle) private readonly bundle: Pick<SdkBundle, 'channel'>,
    @Inject(SdkConfigDocument) private readonly config: Pick<SdkConfigDocument, 'forPage' | 'corsRefused'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async of(store: Frozen<StoreDocument>): Promise<ServedScript> {
    const kept = this.built.get(store._id);
    if (kept?.script && kept.until > this.now()) return kept.script;
    const release = this.bundle.channel(store.sdk_config!.release_channel);
    const [page, corsRefused] = await Promise.all([this.config.forPage(store), this.config.corsRefused(store)]);
    const text = withPageConfig(release, { ...page, cors_refused: corsRefused });
    const code = Buffer.from(text);
    const script = { code, gzip: gzipSync(code), etag: `"${release.version}-${createHash('sha256').update(code).digest('base64url').slice(0, 22)}"` };
    // A change that came while this was built may not be in it; one that came just before may not be either.
    const settling = kept && !kept.script && kept.until > this.now();
    if (this.built.get(store._id) === kept && !settling) this.keep(store._id, { script, until: this.now() + KEPT_FOR_MS });
    return script;
  }

  /** The store's mode, rules or authorized scripts changed: its next page view gets a script built after this. */
  changed(storeId: string): void {
    this.keep(storeId, { until: this.now() + SETTLING_MS });
  }

  private keep(storeId: string, entry: { script?: ServedScript; until: number }): void {
    this.built.delete(storeId); // re-inserted last: the oldest entry is the first the bound evicts
    this.built.set(storeId, entry);
    if (this.built.size > MOST_STORES_KEPT) this.built.delete(this.built.keys().next().value!);
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
