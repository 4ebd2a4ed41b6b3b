import type { DomainEvent } from '@pss/kernel';
import type { AuthorizationMethod, IntegrityStatus, ScriptRecommendationView, ScriptStatus, ScriptType } from '@pss/contracts';
import { canHandle } from '@pss/event-store';

export interface ScriptContent {
  hash: string | null;
  sriHash: string | null;
  hashSource: string | null;
  integrityAttr: boolean | null;
  sizeBytes: number | null;
}

/** Which script, of which store and organization, loaded from where (`host` null for an inline script). */
export interface ScriptAddress {
  scriptId: string;
  storeId: string;
  orgId: string;
  src: string;
  inline: boolean;
  host: string | null;
}

export interface ScriptDecision {
  method: AuthorizationMethod;
  by: string;
  justification: string | null;
  policyId: string | null;
  policyVersion: number | null;
  /** What the policy's `prevalence_min` was checked against; null otherwise (and absent from older events). */
  prevalenceSeen: number | null;
}

export type ScriptEvent =
  | DomainEvent<
      'ScriptDetected',
      ScriptContent & ScriptAddress & {
        type: ScriptType;
        vendorId: string | null;
        category: string | null;
        status: ScriptStatus;
        gtmContainer: string | null;
        pageUrl: string;
        sessionId: string;
        detectedAt: string;
      }
    >
  | DomainEvent<
      'ScriptHashChanged',
      ScriptContent & {
        scriptId: string;
        storeId: string;
        previousHash: string | null;
        integrityStatus: IntegrityStatus;
        /** The script was authorized and its content is no longer the authorized one: PCI DSS 11.6.1. */
        unauthorizedChange: boolean;
        authorizedHash: string | null;
        src: string;
        pageUrl: string;
        sessionId: string;
        changedAt: string;
      }
    >
  /**
   * The script's content reported under an algorithm not seen for it before (an SRI token beside the SDK's own
   * SHA-384): remembered beside the other, not a change of content. Pinned too when the script is authorized.
   */
  | DomainEvent<'ScriptHashLearned', { scriptId: string; storeId: string; hash: string; hashSource: string | null; sessionId: string; seenAt: string }>
  | DomainEvent<
      'ScriptAuthorized',
      ScriptDecision & {
        scriptId: string;
        storeId: string;
        authorizedHash: string | null;
        expiresAt: string | null;
        /** When a person should look again, ahead of the expiry. */
        reviewDueAt: string | null;
        authorizedAt: string;
      }
    >
  | DomainEvent<'ScriptBlocked', ScriptDecision & { scriptId: string; storeId: string; ruleId: string; blockedAt: string }>
  /** A policy (or the expiry of an authorization) sent the script back to review. */
  | DomainEvent<'ScriptReviewRequested', ScriptDecision & { scriptId: string; storeId: string; requestedAt: string }>
  | DomainEvent<'ScriptRecommended', { scriptId: string; storeId: string; recommendation: ScriptRecommendation }>
  /**
   * The browser refused to run the script: the bytes served (`hash`, the SDK's own) are not what the page's
   * `integrity` pins. A pinned vendor script that stopped running was swapped upstream or broke the checkout.
   */
  | DomainEvent<
      'ScriptIntegrityRefused',
      { scriptId: string; storeId: string; src: string; hash: string; refusedIntegrity: string; pageUrl: string; sessionId: string; refusedAt: string }
    >
  /** The browser runs the script again: its bytes are what the page's `integrity` pins, or the page pins none. */
  | DomainEvent<'ScriptIntegrityAccepted', { scriptId: string; storeId: string; hash: string | null; acceptedAt: string }>
  | DomainEvent<'ScriptSensitiveFieldAccessed', { scriptId: string; storeId: string; field: string; accessedAt: string }>
  | DomainEvent<'ScriptMarkedSuspicious', { scriptId: string; storeId: string; field: string; markedAt: string }>
  /**
   * The authorized content, seen from a session new to it while a mismatch is held (`client`: the keyed hash of
   * the sender's address; null from a gateway that sends none). Not yet proof: see ScriptIntegrityRestored.
   */
  | DomainEvent<'ScriptAuthorizedContentSeen', { scriptId: string; storeId: string; hash: string; sessionId: string; client: string | null; seenAt: string }>
  /** The held mismatch ends: the authorized content was seen from enough sessions and addresses (issue 29). */
  | DomainEvent<'ScriptIntegrityRestored', { scriptId: string; storeId: string; hash: string; sessions: number; clients: number; restoredAt: string }>;

/** What a `recommend` policy would decide, shown on the script until someone decides. */
export type ScriptRecommendation = ScriptRecommendationView;

export const scriptStream = (scriptId: string): string => `script-${scriptId}`;

/** Readers of script streams (the projection, the publisher) narrow recorded events with this. */
export const isScriptEvent = canHandle<ScriptEvent>({
  ScriptDetected: true,
  ScriptHashChanged: true,
  ScriptHashLearned: true,
  ScriptAuthorized: true,
  ScriptBlocked: true,
  ScriptReviewRequested: true,
  ScriptRecommended: true,
  ScriptIntegrityRefused: true,
  ScriptIntegrityAccepted: true,
  ScriptSensitiveFieldAccessed: true,
  ScriptMarkedSuspicious: true,
  ScriptAuthorizedContentSeen: true,
  ScriptIntegrityRestored: true,
});
