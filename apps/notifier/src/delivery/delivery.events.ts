import { deterministicUuid, type DomainEvent } from '@pss/kernel';
import type { Envelope } from '../events/webhook-event';

interface OfDelivery {
  deliveryId: string;
  channelId: string;
}

/**
 * One event for one channel, from request to outcome. Every attempt is claimed before it is sent, until
 * `claimedUntil`: of two processes taking the same attempt only one claims it, and a process that dies
 * mid-attempt leaves a claim that runs out, after which the retry cycle takes the attempt over.
 */
export type DeliveryEvent =
  /** The envelope as it will be sent, whatever the channel becomes; the first attempt is due at once. */
  | DomainEvent<'DeliveryRequested', OfDelivery & { orgId: string; event: Envelope; maxAttempts: number; requestedAt: string }>
  | DomainEvent<'DeliveryAttemptStarted', OfDelivery & { attempt: number; at: string; claimedUntil: string }>
  | DomainEvent<'DeliveryAttemptFailed', OfDelivery & { attempt: number; error: string; at: string; nextAttemptAt: string }>
  /** `status` is the HTTP status; null for e-mail. */
  | DomainEvent<'DeliverySucceeded', OfDelivery & { attempt: number; status: number | null; at: string }>
  /** For good: the last attempt failed, or a retry fell due while the channel was inactive or deleted. */
  | DomainEvent<'DeliveryFailed', OfDelivery & { attempts: number; error: string; at: string }>;

export const deliveryStream = (deliveryId: string): string => `delivery-${deliveryId}`;

/** One delivery per channel and event: a redelivered integration event finds its delivery already requested. */
export const deliveryIdFor = (channelId: string, eventId: string): string => deterministicUuid('delivery', channelId, eventId);
