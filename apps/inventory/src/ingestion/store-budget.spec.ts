import { StoreBudget } from './store-budget';

describe('StoreBudget', () => {
  const limits = { perBatch: 50, perMinute: 120, burst: 100, trackedStores: 2 };
  const t0 = Date.parse('2026-05-04T15:00:00.000Z');

  it('grants a burst, then refuses with a time to come back, then refills at the sustained rate', () => {
    const budget = new StoreBudget(limits);
    expect(budget.take('store-a', 50, t0)).toEqual({ granted: 50 });
    expect(budget.take('store-a', 50, t0)).toEqual({ granted: 50 });
    expect(budget.take('store-a', 50, t0)).toEqual({ granted: 0, retryAfterSeconds: 1 }); // 120 a minute: one every 0.5 s
    expect(budget.take('store-a', 50, t0 + 10_000)).toEqual({ granted: 20, retryAfterSeconds: 1 });
  });

  it('records at most a batch’s worth from one batch, whatever it holds', () => {
    const budget = new StoreBudget(limits);
    expect(budget.take('store-a', 500, t0)).toEqual({ granted: 50, retryAfterSeconds: 1 });
  });

  it('keeps stores apart, and tracks only a bounded number of them', () => {
    const budget = new StoreBudget(limits);
    budget.take('store-a', 100, t0);
    budget.take('store-a', 100, t0);
    expect(budget.take('store-b', 10, t0)).toEqual({ granted: 10 });
    budget.take('store-c', 1, t0); // store-a, the least recently active, is forgotten: it starts full again
    expect(budget.take('store-a', 50, t0).granted).toBe(50);
  });

  it('never counts a clock set back as time passed', () => {
    const budget = new StoreBudget(limits);
    budget.take('store-a', 50, t0);
    budget.take('store-a', 50, t0);
    expect(budget.take('store-a', 1, t0 - 60_000).granted).toBe(0);
  });
});
