import { Inject, Injectable } from '@nestjs/common';
import { HOST_PREVALENCE, STORES, type HostPrevalenceDocument, type ScriptDocument, type StoreDocument } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { findVendor, isThreatHost } from '../catalog/catalog';
import type { ScriptFacts } from './evaluation/script-facts';

/** Gathers what policies look at for one script, from the read models and the catalog. */
@Injectable()
export class ScriptFactsReader {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async of(script: ScriptDocument, store: StoreDocument): Promise<ScriptFacts> {
    const vendor = script.host ? findVendor(script.host) : undefined;
    return {
      inline: script.inline,
      host: script.host,
      path: script.inline ? null : new URL(script.src).pathname,
      type: script.type,
      category: script.category,
      vendorId: script.vendor_id,
      vendorName: vendor?.name ?? null,
      sizeBytes: script.size_bytes,
      integrityAttr: script.integrity_attr,
      sensitiveFieldAccess: script.sensitive_fields_accessed.length > 0,
      threat: script.host !== null && isThreatHost(script.host),
      sameOrigin: script.host === store.domain,
      storeProvider: vendor?.category === 'ecommerce_platform',
      prevalence: await this.prevalence(script.host),
      storeDomain: store.domain,
    };
  }

  private async prevalence(host: string | null): Promise<number> {
    if (!host) return 0;
    const active = await this.readStore.collection<StoreDocument>(STORES).count({ status: 'active' });
    const seen = await this.readStore.collection<HostPrevalenceDocument>(HOST_PREVALENCE).findOne({ _id: host });
    return active === 0 || !seen ? 0 : Math.min(1, seen.store_ids.length / active);
  }
}
