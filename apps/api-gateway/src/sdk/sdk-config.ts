import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { pageRules, RULES, SCRIPTS, scriptUrl, type PageRule, type RuleDocument, type ScriptDocument, type SdkConfigView, type StoreDocument } from '@pss/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { READ_STORE, type Frozen, type ReadStore } from '@pss/read-store';
import { urlTag } from '@pss/sdk-contract';
import { SdkBundle, type SdkRelease } from './sdk-bundle';

/** About 12 bytes each in the keyed script: a checkout rarely loads more than a few dozen scripts. */
const MOST_CORS_REFUSED = 100;

/**
 * What the SDK on a store's page runs with: the store's SDK config (`paused` in developer mode), the active
 * block and allow rules, the URLs of authorized external scripts (allows the SDK honours before a block of their
 * host) and the hashes of authorized scripts. Read from the read models on every request, so
 * a rule or an authorization reaches the next page view. `sdk` names the release of the store's channel, with
 * the immutable URL and SRI hash a shop pins.
 */
@Injectable()
export class SdkConfigDocument {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly service: ServiceConfig,
    private readonly bundle: SdkBundle,
  ) {}

  /** A release as shops pin it: `<script src="{url}?key=…" integrity="{integrity}" crossorigin="anonymous">`. */
  describe(release: SdkRelease): { version: string; url: string; integrity: string } {
    return { version: release.version, url: `${this.service.publicUrl}/sdk/v1/sdk-${release.version}.js`, integrity: release.integrity };
  }

  async of(store: Frozen<StoreDocument>): Promise<{ body: Record<string, unknown>; etag: string }> {
    const authorized = await this.authorized(store);
    const page = await this.pageWith(store, authorized);
    const body = {
      store_id: store._id,
      ...page,
      authorized_hashes: [...new Set(authorized.flatMap((script) => (script.authorized_hash ? [script.authorized_hash] : [])))],
      sdk: { channel: page.config.release_channel, ...this.describe(this.bundle.channel(page.config.release_channel)) },
    };
    return { body, etag: `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"` };
  }

  /**
   * The URL tags of the store's external scripts that the SDK has never hashed in a page (their CORS re-fetch
   * refused; a hash from `integrity` at most), the most recently seen first: the keyed `sdk.js` carries them so
   * that page views stop re-fetching those for nothing (libs/sdk-contract/src/url-tag.ts, `refusedByCors`). Tags, not
   * URLs: a script URL may carry one visitor's data in its query, and the script is public.
   */
  async corsRefused(store: Frozen<StoreDocument>): Promise<string[]> {
    const refused = await this.readStore
      .collection<ScriptDocument>(SCRIPTS)
      .find({ store_id: store._id, inline: false, hash_source: { $ne: 'sdk' } }, { sort: { last_seen_at: -1 }, limit: MOST_CORS_REFUSED });
    return refused.map((script) => urlTag(script.src));
  }

  /** What the SDK on the page acts on: the config, the active rules and the authorized URLs (the keyed `sdk.js` carries this much). */
  async forPage(store: Frozen<StoreDocument>): Promise<PageConfig> {
    return this.pageWith(store, await this.authorized(store));
  }

  private async pageWith(store: Frozen<StoreDocument>, authorized: ReadonlyArray<Frozen<ScriptDocument>>): Promise<PageConfig> {
    const rules = await this.readStore
      .collection<RuleDocument>(RULES)
      .find({ store_id: store._id, active: true }, { sort: { _id: 1 } });
    const { updated_at: _updatedAt, ...config } = store.sdk_config!;
    // Without query: the identity of a script, which a url rule without query covers with any query.
    const urls = authorized.filter((script) => !script.inline).map((script) => scriptUrl(script.src));
    return { paused: config.developer_mode, config, rules: pageRules(rules), authorized_urls: [...new Set(urls)] };
  }

  private authorized(store: Frozen<StoreDocument>): Promise<ReadonlyArray<Frozen<ScriptDocument>>> {
    return this.readStore.collection<ScriptDocument>(SCRIPTS).findFrozen({ store_id: store._id, status: 'authorized' }, { sort: { _id: 1 } });
  }
}

export interface PageConfig {
  paused: boolean;
  config: Frozen<Omit<SdkConfigView, 'updated_at'>>;
  rules: Record<'block' | 'allow', PageRule[]>;
  /** The store's authorized external scripts, without query: the SDK lets them run on a blocked host. */
  authorized_urls: string[];
  /** Only in the keyed `sdk.js`: see `corsRefused`. */
  cors_refused?: string[];
}
