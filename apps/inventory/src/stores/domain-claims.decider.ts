import { conflict, type Decider, type DomainEvent } from '@pss/kernel';

/**
 * Who holds a production domain (issue 29, item 9d). Creating a store only claims its domain: claims of several
 * organizations may stand side by side, so whoever creates a store for a domain first cannot keep its owner out.
 * One claim proven by DNS owns the domain: the others are taken over, and nobody may claim it while it is owned.
 * One stream per domain, so two verifications at once conflict on its expected revision.
 */
export type DomainClaimsEvent =
  | DomainEvent<'DomainClaimed', { domain: string; storeId: string; orgId: string; claimedAt: string }>
  | DomainEvent<'DomainOwnerVerified', { domain: string; storeId: string; orgId: string; takenOver: DomainClaim[] }>
  | DomainEvent<'DomainClaimReleased', { domain: string; storeId: string }>;

export type DomainClaimsCommand =
  | { type: 'ClaimDomain'; domain: string; storeId: string; orgId: string; at: Date }
  | { type: 'VerifyDomainOwner'; domain: string; storeId: string; orgId: string }
  | { type: 'ReleaseDomainClaim'; domain: string; storeId: string };

export interface DomainClaim {
  storeId: string;
  orgId: string;
  /** Absent on the owner's: a verified claim is a store that exists. */
  claimedAt?: string;
}

export interface DomainClaimsState {
  owner?: DomainClaim;
  /** Unverified claims standing, oldest first. */
  claims: DomainClaim[];
  /** The claims the owner's verification ended: a retried verification ends them again, each once. */
  takenOver: DomainClaim[];
}

export const domainTakenMessage = (domain: string): string => `A store with the domain ${domain} already exists`;

export const domainClaimsDecider: Decider<DomainClaimsState, DomainClaimsCommand, DomainClaimsEvent> = {
  initialState: () => ({ claims: [], takenOver: [] }),

  decide(command, state) {
    const { domain, storeId } = command;
    const holds = state.owner?.storeId === storeId || state.claims.some((claim) => claim.storeId === storeId);
    switch (command.type) {
      case 'ClaimDomain': {
        if (holds) return [];
        // One organization has no use for two claims of one domain: that is the duplicate the spec's 409 meant.
        if (state.owner || state.claims.some((claim) => claim.orgId === command.orgId)) throw conflict(domainTakenMessage(domain));
        return [{ type: 'DomainClaimed', data: { domain, storeId, orgId: command.orgId, claimedAt: command.at.toISOString() } }];
      }
      case 'VerifyDomainOwner': {
        if (state.owner?.storeId === storeId) return [];
        if (state.owner) throw conflict(`The domain ${domain} is already verified by another store`);
        const takenOver = state.claims.filter((claim) => claim.storeId !== storeId);
        return [{ type: 'DomainOwnerVerified', data: { domain, storeId, orgId: command.orgId, takenOver } }];
      }
      case 'ReleaseDomainClaim':
        return holds ? [{ type: 'DomainClaimReleased', data: { domain, storeId } }] : [];
    }
  },

  evolve(state, event) {
    const { storeId } = event.data;
    switch (event.type) {
      case 'DomainClaimed':
        return { ...state, claims: [...state.claims, { storeId, orgId: event.data.orgId, claimedAt: event.data.claimedAt }] };
      case 'DomainOwnerVerified':
        return { owner: { storeId, orgId: event.data.orgId }, claims: [], takenOver: event.data.takenOver };
      case 'DomainClaimReleased':
        return state.owner?.storeId === storeId
          ? { claims: state.claims, takenOver: [] }
          : { ...state, claims: state.claims.filter((claim) => claim.storeId !== storeId) };
    }
  },
};

export const domainClaimsStream = (domain: string): string => `domain-claims-${domain}`;
