import { addMilliseconds, type Decider } from '@pss/kernel';
import type { Envelope } from '../events/webhook-event';
import type { DeliveryEvent } from './delivery.events';

const MINUTE_MS = 60 * 1000;

/** Spec, Delivery: retries about 1, 10 and 60 minutes after the previous failure; with the first, 4 attempts. */
const RETRY_DELAYS_MS = [1 * MINUTE_MS, 10 * MINUTE_MS, 60 * MINUTE_MS];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long a claimed attempt is left to its claimant: well over the 8 s an attempt may last. */
const ATTEMPT_CLAIM_MS = MINUTE_MS;

export type AttemptOutcome = { delivered: true; status: number | null } | { delivered: false; error: string };

/** The channel as the attempt finds it. */
export type ChannelCondition = 'active' | 'inactive' | 'deleted';

export interface RequestedDelivery {
  deliveryId: string;
  channelId: string;
  orgId: string;
  event: Envelope;
  maxAttempts: number;
}

export type DeliveryCommand =
  | { type: 'RequestDelivery'; delivery: RequestedDelivery; at: Date }
  /** Claims the next attempt once it is due: the first at once, a retry at its time, an abandoned one when its claim ran out. */
  | { type: 'StartAttempt'; channel: ChannelCondition; at: Date }
  | { type: 'RecordOutcome'; attempt: number; outcome: AttemptOutcome; at: Date };

export interface DeliveryState {
  delivery?: RequestedDelivery;
  status: 'none' | 'pending' | 'delivered' | 'failed';
  /** The attempt under way, or the last one made. */
  attempt: number;
  /** An attempt is claimed and its outcome not yet recorded. */
  underWay: boolean;
  failures: number;
  /** When the next attempt may be taken: a retry's time, or the end of the current claim. */
  dueAt?: string;
  lastError: string | null;
}

export const deliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> = {
  initialState: () => ({ status: 'none', attempt: 0, underWay: false, failures: 0, lastError: null }),

  decide(command, state) {
    switch (command.type) {
      case 'RequestDelivery': {
        if (state.delivery) return [];
        return [{ type: 'DeliveryRequested', data: { ...command.delivery, requestedAt: command.at.toISOString() } }];
      }
      case 'StartAttempt':
        return startAttempt(command, state);
      case 'RecordOutcome':
        return recordOutcome(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DeliveryRequested': {
        const { deliveryId, channelId, orgId, event: envelope, maxAttempts, requestedAt } = event.data;
        return { ...state, delivery: { deliveryId, channelId, orgId, event: envelope, maxAttempts }, status: 'pending', dueAt: requestedAt };
      }
      case 'DeliveryAttemptStarted':
        return { ...state, attempt: event.data.attempt, underWay: true, dueAt: event.data.claimedUntil };
      case 'DeliveryAttemptFailed':
        return { ...state, underWay: false, failures: event.data.attempt, dueAt: event.data.nextAttemptAt, lastError: event.data.error };
      case 'DeliverySucceeded':
        return { ...state, status: 'delivered', underWay: false, dueAt: undefined, lastError: null };
      case 'DeliveryFailed':
        return { ...state, status: 'failed', underWay: false, dueAt: undefined, lastError: event.data.error };
    }
  },
};

const claimEnd = (at: Date): string => addMilliseconds(at, ATTEMPT_CLAIM_MS).toISOString();

/**
 * A due attempt goes out if the channel is active (a test also to an inactive one); else the delivery fails
 * without being sent (spec, Webhook delivery status). A claim that ran out with no outcome is taken over as the
 * same attempt: an attempt counts once its outcome is known.
 */
function startAttempt(command: Extract<DeliveryCommand, { type: 'StartAttempt' }>, state: DeliveryState): DeliveryEvent[] {
  const { delivery } = state;
  if (!delivery || state.status !== 'pending' || command.at.toISOString() < state.dueAt!) return [];
  const of = { deliveryId: delivery.deliveryId, channelId: delivery.channelId };
  const at = command.at.toISOString();
  const unusable = command.channel === 'deleted' || (command.channel === 'inactive' && delivery.event.type !== 'test');
  if (unusable) return [{ type: 'DeliveryFailed', data: { ...of, attempts: state.failures, error: `channel ${command.channel}`, at } }];
  return [{ type: 'DeliveryAttemptStarted', data: { ...of, attempt: state.failures + 1, at, claimedUntil: claimEnd(command.at) } }];
}

/** Only the claimed attempt's first outcome counts; a late one (its claim taken over and settled) changes nothing. */
function recordOutcome(command: Extract<DeliveryCommand, { type: 'RecordOutcome' }>, state: DeliveryState): DeliveryEvent[] {
  const { delivery } = state;
  if (!delivery || state.status !== 'pending' || !state.underWay || command.attempt !== state.attempt) return [];
  const of = { deliveryId: delivery.deliveryId, channelId: delivery.channelId, at: command.at.toISOString() };
  const { attempt, outcome } = command;
  if (outcome.delivered) return [{ type: 'DeliverySucceeded', data: { ...of, attempt, status: outcome.status } }];
  if (attempt >= delivery.maxAttempts) return [{ type: 'DeliveryFailed', data: { ...of, attempts: attempt, error: outcome.error } }];
  const nextAttemptAt = addMilliseconds(command.at, RETRY_DELAYS_MS[attempt - 1]).toISOString();
  return [{ type: 'DeliveryAttemptFailed', data: { ...of, attempt, error: outcome.error, nextAttemptAt } }];
}
