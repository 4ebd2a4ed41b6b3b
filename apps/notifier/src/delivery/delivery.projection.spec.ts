import { DELIVERIES, DELIVERY_HISTORY_SIZE } from '@pss/contracts';
import { expectReplayedTwice, project, recorded, replayedTwice } from '@pss/testkit';
import type { DeliveryEvent } from './delivery.events';
import { DeliveryProjection, PENDING_DELIVERIES, statusCodeOf } from './delivery.projection';

type Data<T extends DeliveryEvent['type']> = Extract<DeliveryEvent, { type: T }>['data'];
const stored = <T extends DeliveryEvent['type']>(type: T, data: Data<T>) => recorded(`delivery-${data.deliveryId}`, type, data);

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 23, 9, minute)).toISOString();
const requested = (deliveryId: string, channelId: string, minute: number) =>
  stored('DeliveryRequested', {
    deliveryId,
    channelId,
    orgId: 'o1',
    event: { id: `evt-${deliveryId}`, type: 'alert.created', created_at: at(minute), data: { id: 'a1' } },
    maxAttempts: 5,
    requestedAt: at(minute),
  });

/** Every delivery event handled twice in a row, then the whole log again: the same queue and history as once. */
describe('DeliveryProjection replayed twice', () => {
  it('keeps a delivery pending until it settles, with its attempts and last error', async () => {
    const events = [
      requested('d1', 'c1', 0),
      stored('DeliveryAttemptStarted', { deliveryId: 'd1', channelId: 'c1', attempt: 1, at: at(0), claimedUntil: at(1) }),
      stored('DeliveryAttemptFailed', { deliveryId: 'd1', channelId: 'c1', attempt: 1, error: 'HTTP 503', at: at(0), nextAttemptAt: at(2) }),
      stored('DeliveryAttemptStarted', { deliveryId: 'd1', channelId: 'c1', attempt: 2, at: at(2), claimedUntil: at(3) }),
      stored('DeliverySucceeded', { deliveryId: 'd1', channelId: 'c1', attempt: 2, status: 200, at: at(2) }),
      requested('d2', 'c1', 3),
      stored('DeliveryAttemptStarted', { deliveryId: 'd2', channelId: 'c1', attempt: 1, at: at(3), claimedUntil: at(4) }),
      stored('DeliveryAttemptFailed', { deliveryId: 'd2', channelId: 'c1', attempt: 1, error: 'timeout', at: at(4), nextAttemptAt: at(9) }),
      requested('d3', 'c2', 5),
      stored('DeliveryFailed', { deliveryId: 'd3', channelId: 'c2', attempts: 0, error: 'channel inactive', at: at(6) }),
    ];
    const twice = await replayedTwice(DeliveryProjection, events);
    expect(twice[PENDING_DELIVERIES]).toEqual([expect.objectContaining({ _id: 'd2', channel_id: 'c1', org_id: 'o1', due_at: at(9), attempted: true })]);
    expect(twice[DELIVERIES]).toEqual([
      expect.objectContaining({
        _id: 'd1',
        org_id: 'o1',
        channel_id: 'c1',
        event_id: 'evt-d1',
        event_type: 'alert.created',
        status: 'delivered',
        attempts: 2,
        last_error: 'HTTP 503',
        next_attempt_at: null,
        created_at: at(0),
        updated_at: at(2),
      }),
      expect.objectContaining({ _id: 'd2', status: 'pending', attempts: 1, last_error: 'timeout', next_attempt_at: at(9), updated_at: at(4) }),
      expect.objectContaining({ _id: 'd3', channel_id: 'c2', status: 'failed', attempts: 0, last_error: 'channel inactive', next_attempt_at: null }),
    ]);
  });

  it("records each settled or failed attempt's status code and how long it took from its start", async () => {
    const events = [
      requested('d1', 'c1', 0),
      stored('DeliveryAttemptStarted', { deliveryId: 'd1', channelId: 'c1', attempt: 1, at: at(0), claimedUntil: at(1) }),
      stored('DeliveryAttemptFailed', { deliveryId: 'd1', channelId: 'c1', attempt: 1, error: 'http_503: busy', at: at(1), nextAttemptAt: at(2) }),
      requested('d2', 'c1', 3),
      stored('DeliveryAttemptStarted', { deliveryId: 'd2', channelId: 'c1', attempt: 1, at: at(3), claimedUntil: at(4) }),
      stored('DeliverySucceeded', { deliveryId: 'd2', channelId: 'c1', attempt: 1, status: 204, at: at(5) }),
    ];
    await expectReplayedTwice(DeliveryProjection, events, DELIVERIES, [
      { _id: 'd1', status: 'pending', status_code: 503, duration_ms: 60_000, next_attempt_at: at(2) },
      { _id: 'd2', status: 'delivered', status_code: 204, duration_ms: 120_000 },
    ]);
  });

  it.each([
    ['http_404: not here', 404],
    ['http_500:', 500],
    ['timeout', null],
    ['connect ECONNREFUSED 127.0.0.1:443', null],
  ])('reads the status code of the error %j as %j', (error, code) => {
    expect(statusCodeOf(error)).toBe(code);
  });

  it('shows an error recorded before receiver text was cleaned as printable text: no escape, bidi or line break', async () => {
    const events = [
      requested('d1', 'c1', 0),
      stored('DeliveryAttemptFailed', { deliveryId: 'd1', channelId: 'c1', attempt: 1, error: 'http_500: \u001b]0;owned\u0007ok\r\nfake line \u202Etxt.exe', at: at(0), nextAttemptAt: at(2) }),
      requested('d2', 'c1', 1),
      stored('DeliveryFailed', { deliveryId: 'd2', channelId: 'c1', attempts: 4, error: 'http_502: \u2066bad\u2069\u200b', at: at(2) }),
    ];
    const twice = await project(new DeliveryProjection(), events, 'twice');
    expect(twice[DELIVERIES].map((entry) => entry.last_error)).toEqual(['http_500: ]0;ownedok fake line txt.exe', 'http_502: bad']);
  });

  it('keeps each channel’s newest entries only, and a replay brings none of the older ones back', async () => {
    const ids = Array.from({ length: DELIVERY_HISTORY_SIZE + 2 }, (_, n) => `d${String(n).padStart(2, '0')}`);
    const events = [
      ...ids.flatMap((id, n) => [requested(id, 'c1', n), stored('DeliverySucceeded', { deliveryId: id, channelId: 'c1', attempt: 1, status: 200, at: at(n) })]),
      requested('x1', 'c2', 0),
    ];
    const twice = await replayedTwice(DeliveryProjection, events);
    const history = twice[DELIVERIES];
    expect(history.filter((entry) => entry.channel_id === 'c1').map((entry) => entry._id)).toEqual(ids.slice(2));
    expect(history.filter((entry) => entry.channel_id === 'c1').every((entry) => entry.status === 'delivered')).toBe(true);
    expect(history.filter((entry) => entry.channel_id === 'c2').map((entry) => entry._id)).toEqual(['x1']);
    expect(twice[PENDING_DELIVERIES].map((entry) => entry._id)).toEqual(['x1']);
  });

  it('marks a delivery whose immediate attempt no one claimed yet, until one is (issue 33: MissedFirstAttempts reads it)', async () => {
    const request = requested('d1', 'c1', 0);
    const claim = stored('DeliveryAttemptStarted', { deliveryId: 'd1', channelId: 'c1', attempt: 1, at: at(1), claimedUntil: at(2) });
    expect((await replayedTwice(DeliveryProjection, [request]))[PENDING_DELIVERIES]).toEqual([expect.objectContaining({ _id: 'd1', due_at: at(0), attempted: false })]);
    expect((await replayedTwice(DeliveryProjection, [request, claim]))[PENDING_DELIVERIES]).toEqual([expect.objectContaining({ _id: 'd1', due_at: at(2), attempted: true })]);
  });
});
