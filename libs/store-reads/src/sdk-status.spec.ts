import { sdkStatusOf } from './sdk-status';

const now = new Date('2026-05-10T12:00:00.000Z');
const hoursAgo = (hours: number) => ({ last_event_at: new Date(now.getTime() - hours * 3_600_000).toISOString(), events_total: 3 });
const store = { sdk_config: null };

describe('a store SDK status', () => {
  it('is not installed before any page view, installed after one', () => {
    expect(sdkStatusOf(store, null, now)).toEqual({ installed: false, paused: false, last_event_at: null, silent: false, events_total: 0 });
    expect(sdkStatusOf(store, hoursAgo(1), now)).toMatchObject({ installed: true, silent: false, events_total: 3 });
  });

  it('is silent from 24 hours without a page view until the traffic window of 7 days has passed too', () => {
    expect(sdkStatusOf(store, hoursAgo(23.9), now).silent).toBe(false);
    expect(sdkStatusOf(store, hoursAgo(24), now).silent).toBe(true);
    expect(sdkStatusOf(store, hoursAgo(24 * 8 - 0.1), now).silent).toBe(true);
    expect(sdkStatusOf(store, hoursAgo(24 * 8), now).silent).toBe(false);
  });

  it('is paused while developer mode is on', () => {
    const developing = { sdk_config: { developer_mode: true } } as Parameters<typeof sdkStatusOf>[0];
    expect(sdkStatusOf(developing, null, now).paused).toBe(true);
  });
});
