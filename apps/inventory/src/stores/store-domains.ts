import { Inject, Injectable } from '@nestjs/common';
import type { StoreEnvironment } from '@pss/contracts';
import { CLOCK, DomainError, type Clock } from '@pss/kernel';
import { AggregateRepository, reservationDecider, reservationStream, type CommandContext } from '@pss/platform';
import { domainClaimsDecider, domainClaimsStream, type DomainClaim, type DomainClaimsState } from './domain-claims.decider';
import { storeDecider } from './store.decider';
import { storeStream } from './store.events';
import { storeQuotaDecider, storeQuotaStream } from './store-quota.decider';

export interface StoreOnDomain {
  storeId: string;
  orgId: string;
  domain: string;
  environment: StoreEnvironment;
}

/**
 * A store's hold on its domain. Production: a claim among the domain's claims, owned once verified (issue 29,
 * item 9d). Staging: a key unique within the organization's staging stores, as before: local names prove nothing.
 */
@Injectable()
export class StoreDomains {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Holds the domain for the store, or 409. A hold left by a create that died before its store existed (abandoned,
   * and no store of that id) is taken over, and the dead create's quota slot freed: else the domain were refused
   * to the organization for good, and the slot counted against the plan.
   */
  async claim(store: StoreOnDomain, context: CommandContext): Promise<void> {
    try {
      await this.hold(store, context);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
      const dead = await this.deadHolder(store);
      if (!dead) throw error;
      await this.release({ ...store, storeId: dead }, context);
      await this.aggregates.decide(storeQuotaStream(store.orgId), storeQuotaDecider, { type: 'FreeStoreSlot', orgId: store.orgId, storeId: dead }, context);
      await this.hold(store, context);
    }
  }

  async release({ storeId, orgId, domain, environment }: StoreOnDomain, context: CommandContext): Promise<void> {
    if (environment === 'staging') {
      await this.aggregates.release(stagingKey(orgId, domain), storeId, context);
      return;
    }
    await this.aggregates.decide(domainClaimsStream(domain), domainClaimsDecider, { type: 'ReleaseDomainClaim', domain, storeId }, context);
    await this.aggregates.release(legacyKey(domain), storeId, context);
  }

  /**
   * Makes the store the domain's owner (409 when another store is) and answers the claims it ends: the standing
   * unverified ones, and a store created before claims existed, which holds the domain's old unique key.
   */
  async own({ storeId, orgId, domain }: StoreOnDomain, context: CommandContext): Promise<DomainClaim[]> {
    const { state } = await this.aggregates.decide(domainClaimsStream(domain), domainClaimsDecider, { type: 'VerifyDomainOwner', domain, storeId, orgId }, context);
    return [...(state as DomainClaimsState).takenOver, ...(await this.legacyHolder(domain, storeId))];
  }

  private async hold({ storeId, orgId, domain, environment }: StoreOnDomain, context: CommandContext): Promise<void> {
    if (environment === 'staging') {
      await this.aggregates.reserve(stagingKey(orgId, domain), storeId, context, `A staging store with the domain ${domain} already exists in this organization`);
      return;
    }
    const claim = { type: 'ClaimDomain' as const, domain, storeId, orgId, at: this.clock.now() };
    await this.aggregates.decide(domainClaimsStream(domain), domainClaimsDecider, claim, context);
  }

  /** The store whose abandoned create holds what `store` was refused, when that store never came to exist. */
  private async deadHolder({ orgId, domain, environment }: StoreOnDomain): Promise<string | undefined> {
    let holder: { storeId: string; abandoned: boolean } | undefined;
    if (environment === 'staging') {
      const held = await this.aggregates.holder(stagingKey(orgId, domain));
      holder = held && { storeId: held.owner, abandoned: held.abandoned };
    } else {
      const { state } = await this.aggregates.load(domainClaimsStream(domain), domainClaimsDecider);
      const claim = state.claims.find((standing) => standing.orgId === orgId);
      holder = claim && { storeId: claim.storeId, abandoned: this.aggregates.isAbandoned(claim.claimedAt!) };
    }
    return holder?.abandoned && !(await this.exists(holder.storeId)) ? holder.storeId : undefined;
  }

  private async legacyHolder(domain: string, storeId: string): Promise<DomainClaim[]> {
    const { state: key } = await this.aggregates.load(reservationStream(legacyKey(domain)), reservationDecider);
    if (!key.owner || key.owner === storeId) return [];
    const { state: holder } = await this.aggregates.load(storeStream(key.owner), storeDecider);
    return holder.orgId ? [{ storeId: key.owner, orgId: holder.orgId }] : [];
  }

  private async exists(storeId: string): Promise<boolean> {
    const { state } = await this.aggregates.load(storeStream(storeId), storeDecider);
    return state.storeId !== undefined;
  }
}

/** Before item 9d a production domain was unique across the service under this key, from creation. */
const legacyKey = (domain: string): string => `domain:${domain}`;
const stagingKey = (orgId: string, domain: string): string => `staging-domain:${orgId}:${domain}`;
