import type { DomainEvent } from '@pss/kernel';

/**
 * What the SDK saw that is not a script: facts recorded as they arrive (no decision to take), on one stream per
 * store. The alerts service turns them into alerts.
 */
export interface Seen {
  storeId: string;
  orgId: string;
  pageUrl: string;
  sessionId: string;
  at: string;
}

/** A script on the stack of a sensitive-field read: the reader, or one that called it (absent before issue 34). */
export interface ReadingScript {
  scriptId: string;
  src: string;
  scriptAuthorized: boolean;
}

export type SignalEvent =
  | DomainEvent<'CspViolationObserved', Seen & { directive: string; blockedUri: string; sourceFile: string | null }>
  | DomainEvent<'SensitiveFieldAccessed', Seen & ReadingScript & { field: string; callers?: ReadingScript[] }>
  | DomainEvent<'UnexpectedIframeObserved', Seen & { origin: string; host: string; expected: string[] }>
  | DomainEvent<'PaymentRecipientMismatched', Seen & { method: string; keyHash: string; pinned: number }>;

export const signalsStream = (storeId: string): string => `observations-${storeId}`;
