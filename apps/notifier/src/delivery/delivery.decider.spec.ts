import { deciderSpec } from '@pss/testkit';
import type { Envelope } from '../events/webhook-event';
import { deliveryDecider, type RequestedDelivery } from './delivery.decider';
import type { DeliveryEvent } from './delivery.events';

const T0 = Date.parse('2026-05-04T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const iso = (ms: number) => at(ms).toISOString();
const MINUTE = 60_000;
const of = { deliveryId: 'd1', channelId: 'c1' };
const envelope: Envelope = { id: 'evt_1', type: 'alert.created', created_at: iso(0), data: { alert_id: 'a1' } };
const delivery: RequestedDelivery = { ...of, orgId: 'o1', event: envelope, maxAttempts: 4 };

const requested: DeliveryEvent = { type: 'DeliveryRequested', data: { ...delivery, requestedAt: iso(0) } };
const started = (attempt: number, ms: number): DeliveryEvent => ({ type: 'DeliveryAttemptStarted', data: { ...of, attempt, at: iso(ms), claimedUntil: iso(ms + MINUTE) } });
const failed = (attempt: number, ms: number, retryIn: number): DeliveryEvent => ({
  type: 'DeliveryAttemptFailed',
  data: { ...of, attempt, error: 'http_503: down', at: iso(ms), nextAttemptAt: iso(ms + retryIn) },
});
const spec = deciderSpec(deliveryDecider);

describe('delivery decider', () => {
  it('records a request once per channel and event, its first attempt due at once', () => {
    spec.given([]).when({ type: 'RequestDelivery', delivery, at: at(0) }).then([requested]);
    spec.given([requested]).when({ type: 'RequestDelivery', delivery, at: at(5) }).thenNothingHappens();
    spec.given([requested]).when({ type: 'StartAttempt', channel: 'active', at: at(0) }).then([started(1, 0)]);
  });

  it('schedules retries about 1, 10 and 60 minutes after each failure, and fails for good after the fourth', () => {
    const failure = { delivered: false as const, error: 'http_503: down' };
    spec.given([requested, started(1, 0)]).when({ type: 'RecordOutcome', attempt: 1, outcome: failure, at: at(0) }).then([failed(1, 0, MINUTE)]);
    const second = [requested, started(1, 0), failed(1, 0, MINUTE)];
    spec.given(second).when({ type: 'StartAttempt', channel: 'active', at: at(MINUTE - 1) }).thenNothingHappens();
    spec.given(second).when({ type: 'StartAttempt', channel: 'active', at: at(5 * MINUTE) }).then([started(2, 5 * MINUTE)]);
    spec.given([...second, started(2, 5 * MINUTE)]).when({ type: 'RecordOutcome', attempt: 2, outcome: failure, at: at(5 * MINUTE) }).then([failed(2, 5 * MINUTE, 10 * MINUTE)]);
    const fourth = [...second, started(2, 5 * MINUTE), failed(2, 5 * MINUTE, 10 * MINUTE), started(3, 15 * MINUTE), failed(3, 15 * MINUTE, 60 * MINUTE), started(4, 75 * MINUTE)];
    spec.given(fourth).when({ type: 'RecordOutcome', attempt: 4, outcome: failure, at: at(75 * MINUTE) }).then([
      { type: 'DeliveryFailed', data: { ...of, attempts: 4, error: 'http_503: down', at: iso(75 * MINUTE) } },
    ]);
  });

  it('records a success once, and nothing more is attempted', () => {
    const delivered: DeliveryEvent = { type: 'DeliverySucceeded', data: { ...of, attempt: 1, status: 204, at: iso(10) } };
    spec.given([requested, started(1, 0)]).when({ type: 'RecordOutcome', attempt: 1, outcome: { delivered: true, status: 204 }, at: at(10) }).then([delivered]);
    spec.given([requested, started(1, 0), delivered]).when({ type: 'RecordOutcome', attempt: 1, outcome: { delivered: true, status: 204 }, at: at(20) }).thenNothingHappens();
    spec.given([requested, started(1, 0), delivered]).when({ type: 'StartAttempt', channel: 'active', at: at(10 * MINUTE) }).thenNothingHappens();
  });

  it('fails a due retry without sending it when the channel is inactive or deleted; a test goes to an inactive channel', () => {
    const due = [requested, started(1, 0), failed(1, 0, MINUTE)];
    spec.given(due).when({ type: 'StartAttempt', channel: 'inactive', at: at(5 * MINUTE) }).then([
      { type: 'DeliveryFailed', data: { ...of, attempts: 1, error: 'channel inactive', at: iso(5 * MINUTE) } },
    ]);
    spec.given(due).when({ type: 'StartAttempt', channel: 'deleted', at: at(5 * MINUTE) }).then([
      { type: 'DeliveryFailed', data: { ...of, attempts: 1, error: 'channel deleted', at: iso(5 * MINUTE) } },
    ]);
    const test: DeliveryEvent = { type: 'DeliveryRequested', data: { ...delivery, event: { ...envelope, type: 'test' }, maxAttempts: 1, requestedAt: iso(0) } };
    spec.given([test]).when({ type: 'StartAttempt', channel: 'inactive', at: at(0) }).then([started(1, 0)]);
    spec.given([test]).when({ type: 'StartAttempt', channel: 'deleted', at: at(0) }).then([{ type: 'DeliveryFailed', data: { ...of, attempts: 0, error: 'channel deleted', at: iso(0) } }]);
  });

  it('leaves a claimed attempt to its claimant until the claim runs out, then hands the same attempt to another', () => {
    spec.given([requested, started(1, 0)]).when({ type: 'StartAttempt', channel: 'active', at: at(MINUTE - 1) }).thenNothingHappens();
    spec.given([requested, started(1, 0)]).when({ type: 'StartAttempt', channel: 'active', at: at(MINUTE) }).then([started(1, MINUTE)]);
  });

  it("takes the claimed attempt's first outcome only: a late or unclaimed one changes nothing", () => {
    const failure = { delivered: false as const, error: 'timeout' };
    spec.given([requested]).when({ type: 'RecordOutcome', attempt: 1, outcome: failure, at: at(0) }).thenNothingHappens();
    spec.given([requested, started(1, 0), failed(1, 0, MINUTE)]).when({ type: 'RecordOutcome', attempt: 1, outcome: failure, at: at(5) }).thenNothingHappens();
    spec.given([requested, started(1, 0)]).when({ type: 'RecordOutcome', attempt: 2, outcome: failure, at: at(5) }).thenNothingHappens();
  });
});
