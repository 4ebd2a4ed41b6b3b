import { Inject, Injectable } from '@nestjs/common';
import {
  HOST_PREVALENCE,
  ORGANIZATIONS,
  STORE_ACTIVITY,
  STORES,
  type HostPrevalenceDocument,
  type OrganizationDocument,
  type PolicyDocument,
  type ScriptDocument,
  type StoreActivityDocument,
  type StoreDocument,
} from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { findVendor, isThreatHost } from '../catalog/catalog';
import { MONITORING_HISTORY_MS, prevalence, STILL_REPORTING_MS, voterOf, type Electorate, type StoreStanding } from './evaluation/prevalence';
import type { ScriptFacts } from './evaluation/script-facts';
import type { ScriptState } from '../scripts/script.decider';

/** What of a script its facts come from: its read-model document, or its own stream's state. */
export type ScriptTraits = Pick<ScriptDocument, 'inline' | 'host' | 'src' | 'type' | 'category' | 'vendor_id' | 'size_bytes' | 'integrity_attr'> & {
  sensitive_fields_accessed: readonly string[];
};

/** The traits of a script from its stream; undefined before it was detected. */
export function scriptTraitsOf(state: ScriptState): ScriptTraits | undefined {
  if (state.scriptId === undefined || state.src === undefined || state.type === undefined) return undefined;
  return {
    inline: state.inline ?? false,
    host: state.host ?? null,
    src: state.src,
    type: state.type,
    category: state.category ?? null,
    vendor_id: state.vendorId ?? null,
    size_bytes: state.sizeBytes ?? null,
    integrity_attr: state.integrityAttr ?? null,
    sensitive_fields_accessed: state.sensitiveFields,
  };
}

/** Gathers what policies look at for one script, from the read models and the catalog. */
@Injectable()
export class ScriptFactsReader {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `electorate`: what prevalence is measured against, or null when no policy asks for it. */
  async of(script: ScriptTraits, store: StoreDocument, electorate: Electorate | null): Promise<ScriptFacts> {
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
      prevalence: electorate && (await this.prevalence(script.host, electorate)),
      storeDomain: store.domain,
    };
  }

  /**
   * The stores that may vote on prevalence for a decision in `store`, read once for all of its scripts; null when
   * none of `policies` has `prevalence_min` (the service-wide read is then not worth making).
   */
  async electorate(policies: readonly PolicyDocument[], store: StoreDocument): Promise<Electorate | null> {
    if (!policies.some((policy) => policy.conditions.prevalence_min !== undefined)) return null;
    const now = this.clock.now();
    // Narrowed to stores that can qualify (prevalence.ts decides): reported in the window, for long enough.
    const activity = await this.readStore.collection<StoreActivityDocument>(STORE_ACTIVITY).find({
      last_event_at: { $gte: new Date(now.getTime() - STILL_REPORTING_MS).toISOString() },
      first_event_at: { $lte: new Date(now.getTime() - MONITORING_HISTORY_MS).toISOString() },
    });
    const stores = await this.readStore.collection<StoreDocument>(STORES).find({ _id: { $in: activity.map((a) => a._id) } });
    const orgIds = [...new Set([store.org_id, ...stores.map((s) => s.org_id)])];
    const organizations = await this.readStore.collection<OrganizationDocument>(ORGANIZATIONS).find({ _id: { $in: orgIds } });
    const voters = new Map(organizations.map((org) => [org._id, voterOf(org)]));
    const voter = (orgId: string) => voters.get(orgId) ?? orgId;
    const storeById = new Map(stores.map((s) => [s._id, s]));
    const standings: StoreStanding[] = activity.flatMap((a) => {
      const voting = storeById.get(a._id);
      if (!voting) return [];
      return [{ storeId: a._id, voter: voter(voting.org_id), active: voting.status === 'active', staging: voting.environment === 'staging', firstEventAt: a.first_event_at, lastEventAt: a.last_event_at }];
    });
    return { stores: standings, decidingVoter: voter(store.org_id), now };
  }

  private async prevalence(host: string | null, electorate: Electorate): Promise<number> {
    if (!host) return 0;
    const seen = await this.readStore.collection<HostPrevalenceDocument>(HOST_PREVALENCE).findOne({ _id: host });
    return prevalence(seen?.store_ids ?? [], electorate);
  }
}
