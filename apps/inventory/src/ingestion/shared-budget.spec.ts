import { SharedBudget } from './shared-budget';

describe('SharedBudget', () => {
  const limits = { perBatch: 50, perMinute: 100, burst: 100, trackedStores: 100, clientShare: 0.1 };
  const t0 = Date.parse('2026-05-04T15:00:00.000Z');

  it('lets one address spend a tenth of the store budget, and leaves the rest to the others', () => {
    const budget = new SharedBudget(limits);
    expect(budget.take('store-a', 'junk', 50, t0)).toEqual({ granted: 10, retryAfterSeconds: 6, spent: 'address' });
    expect(budget.take('store-a', 'junk', 50, t0)).toEqual({ granted: 0, retryAfterSeconds: 6, spent: 'address' });
    for (let n = 0; n < 9; n += 1) expect(budget.take('store-a', `shopper-${n}`, 10, t0)).toEqual({ granted: 10 });
    expect(budget.take('store-a', 'shopper-9', 10, t0)).toEqual({ granted: 0, retryAfterSeconds: 1, spent: 'store' });
  });

  it('refunds the store what an address could not spend', () => {
    const budget = new SharedBudget({ ...limits, clientShare: 0.5 });
    expect(budget.take('store-a', 'one', 50, t0)).toMatchObject({ granted: 50 });
    expect(budget.take('store-a', 'one', 50, t0)).toMatchObject({ granted: 0, spent: 'address' });
    expect(budget.take('store-a', 'two', 50, t0)).toEqual({ granted: 50 });
  });

  it('draws a batch with no address (an older gateway) on the store budget alone', () => {
    const budget = new SharedBudget(limits);
    expect(budget.take('store-a', undefined, 50, t0)).toEqual({ granted: 50 });
  });

  it('keeps stores apart for one address', () => {
    const budget = new SharedBudget(limits);
    budget.take('store-a', 'junk', 50, t0);
    expect(budget.take('store-b', 'junk', 5, t0)).toEqual({ granted: 5 });
  });

  it('refills an address share at its part of the sustained rate', () => {
    const budget = new SharedBudget(limits);
    budget.take('store-a', 'junk', 10, t0);
    expect(budget.take('store-a', 'junk', 10, t0 + 60_000)).toEqual({ granted: 10 });
  });

  it('never rounds a share to nothing', () => {
    const budget = new SharedBudget({ ...limits, burst: 5 });
    expect(budget.take('store-a', 'one', 5, t0)).toMatchObject({ granted: 1, spent: 'address' });
  });

  it('grants what is vouched for from its own lane, whatever the addresses spent', () => {
    const budget = new SharedBudget(limits);
    for (let n = 0; n < 10; n += 1) budget.take('store-a', `junk-${n}`, 10, t0);
    expect(budget.take('store-a', 'shopper', 1, t0)).toMatchObject({ granted: 0, spent: 'store' });
    expect(budget.takeVouched('store-a', 3, t0)).toEqual({ granted: 3 });
    expect(budget.takeVouched('store-a', 500, t0)).toEqual({ granted: 50, retryAfterSeconds: 1, spent: 'store' });
  });
});
