import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RULES, SCRIPTS, type RuleDocument, type ScriptDocument, type SdkConfigView, type StoreDocument } from '@pss/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { READ_STORE, type Frozen, type ReadStore } from '@pss/read-store';
import { urlTag } from '../../../browser-sdk/src/url-tag';
import { SdkBundle, type SdkRelease } from './sdk-bundle';

/** About 12 bytes each in the keyed script: a checkout rarely loads more than a few dozen scripts. */
const MOST_CORS_REFUSED = 100;

/**
 * What the SDK on a store's page runs with: the store's SDK config (`paused` in developer mode), the active
 * block and allow rules, and the hashes of authorized scripts. Read from the read models on every request, so
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
    const page = await this.forPage(store);
    const authorized = await this.readStore
      .collection<ScriptDocument>(SCRIPTS)
      .find({ store_id: store._id, status: 'authorized', authorized_hash: { $ne: null } }, { sort: { _id: 1 } });
    const body = {
      store_id: store._id,
      ...page,
      authorized_hashes: [...new Set(authorized.map((script) => script.authorized_hash!))],
      sdk: { channel: page.config.release_channel, ...this.describe(this.bundle.channel(page.config.release_channel)) },
    };
    return { body, etag: `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"` };
  }

  /**
   * The URL tags of the store's external scripts that the SDK has never hashed in a page (their CORS re-fetch
   * refused; a hash from `integrity` at most), the most recently seen first: the keyed `sdk.js` carries them so
   * that page views stop re-fetching those for nothing (browser-sdk/src/url-tag.ts, `refusedByCors`). Tags, not
   * URLs: a script URL may carry one visitor's data in its query, and the script is public.
   */
  async corsRefused(store: Frozen<StoreDocument>): Promise<string[]> {
    const refused = await this.readStore
      .collection<ScriptDocument>(SCRIPTS)
      .find({ store_id: store._id, inline: false, hash_source: { $ne: 'sdk' } }, { sort: { last_seen_at: -1 }, limit: MOST_CORS_REFUSED });
    return refused.map((script) => urlTag(script.src));
  }

  /** What the SDK on the page acts on: the config and the active rules (the keyed `sdk.js` carries this much). */
  async forPage(store: Frozen<StoreDocument>): Promise<PageConfig> {
    const rules = await this.readStore
      .collection<RuleDocument>(RULES)
      .find({ store_id: store._id, active: true }, { sort: { _id: 1 } });
    const { updated_at: _updatedAt, ...config } = store.sdk_config!;
    const rule = ({ _id, target, value }: RuleDocument) => ({ id: _id, target, value });
    return {
      paused: config.developer_mode,
      config,
      rules: {
        block: rules.filter((r) => r.type === 'block').map(rule),
        allow: rules.filter((r) => r.type === 'allow').map(rule),
      },
    };
  }
}

export interface PageConfig {
  paused: boolean;
  config: Frozen<Omit<SdkConfigView, 'updated_at'>>;
  rules: Record<'block' | 'allow', Array<{ id: string; target: string; value: string }>>;
  /** Only in the keyed `sdk.js`: see `corsRefused`. */
  cors_refused?: string[];
}
