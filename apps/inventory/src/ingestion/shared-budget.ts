import { StoreBudget, type Allowance, type BudgetLimits } from './store-budget';

/** Whose allowance left items out: the client address's share, or the store's whole budget. */
export type SpentShare = 'address' | 'store';

export type SharedAllowance = Allowance & { spent?: SpentShare };

/**
 * A store's budget of new items, of which each client address (an IPv6 /64) may spend its share: junk posted
 * from one address on the public key leaves the rest to the store's real pages. Items vouched for (a script
 * reported from two addresses, or reading a card field) draw on a lane of their own, as large as the store's
 * budget, so a flood from many addresses cannot defer them either; reaching that lane takes the same junk
 * reported from two addresses, and what it records stays bounded by it. Pure bookkeeping, time passed in.
 */
export class SharedBudget {
  private readonly stores: StoreBudget;
  private readonly clients: StoreBudget;
  private readonly vouched: StoreBudget;

  constructor(limits: BudgetLimits) {
    this.stores = new StoreBudget(limits);
    this.clients = new StoreBudget(shareOf(limits));
    this.vouched = new StoreBudget(limits);
  }

  /**
   * Up to `wanted` items from the store's budget, within `client`'s share of it. A batch with no client (from a
   * gateway older than the field, in a rolling deploy) draws on the store's budget alone: counted as one address,
   * all of them would share a tenth.
   */
  take(storeId: string, client: string | undefined, wanted: number, now: number): SharedAllowance {
    const store = this.stores.take(storeId, wanted, now);
    if (client === undefined) return store.granted < wanted ? { ...store, spent: 'store' } : store;
    const share = this.clients.take(`${storeId} ${client}`, store.granted, now);
    if (share.granted < store.granted) {
      this.stores.refund(storeId, store.granted - share.granted);
      return { granted: share.granted, retryAfterSeconds: share.retryAfterSeconds, spent: 'address' };
    }
    return store.granted < wanted ? { ...store, spent: 'store' } : store;
  }

  /** Up to `wanted` items vouched for, whichever address reports them. */
  takeVouched(storeId: string, wanted: number, now: number): SharedAllowance {
    const allowance = this.vouched.take(storeId, wanted, now);
    return allowance.granted < wanted ? { ...allowance, spent: 'store' } : allowance;
  }
}

/** One address's part of the store's limits: at least one item at once, so a share never rounds to nothing. */
function shareOf(limits: BudgetLimits): Omit<BudgetLimits, 'clientShare'> {
  const share = Math.min(1, Math.max(0, limits.clientShare));
  return { perBatch: limits.perBatch, perMinute: limits.perMinute * share, burst: Math.max(1, Math.floor(limits.burst * share)), trackedStores: limits.trackedStores };
}
