import { newSecret, sameSecret } from './secrets';

/** The spec's session limits: idle 30 minutes, 12 hours at most, whatever the activity. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** How recent a passkey check a sensitive action needs (requireRecentPasskey). */
export const STEP_UP_MS = 5 * 60_000;

/** Who a session belongs to once signed in. */
export interface SessionMember {
  orgId: string;
  memberId: string;
  email: string;
}

/** A ceremony under way: the challenge the next passkey answer must sign, and what it is for. */
export interface PendingChallenge {
  challenge: string;
  purpose: 'redeem' | 'sign-in' | 'add-passkey' | 'step-up';
  /** The invitation being redeemed, for `redeem`. */
  invitationHash?: string;
  /** The WebAuthn user id the registration options named: the member id the redemption gives a newcomer. */
  memberId?: string;
}

/**
 * A browser's session, kept on the server: anonymous until sign-in (it still carries the CSRF token of the
 * sign-in and invitation forms), then a member's. Times are ISO 8601.
 */
export interface Session {
  createdAt: string;
  lastSeenAt: string;
  csrf: string;
  member?: SessionMember;
  /** When the member last proved a passkey (sign-in or step-up); a recovery code does not count. */
  passkeyAt?: string;
  pending?: PendingChallenge;
  /** A partner's owner acting in one of its child organizations (the dashboard's `org_id`); absent: their own. */
  actingOrgId?: string;
  /** A one-shot notice for the next page (PRG): a message key and its parameters. */
  flash?: { key: string; params?: Record<string, string | number> };
}

export const newSession = (now: Date): Session => ({ createdAt: now.toISOString(), lastSeenAt: now.toISOString(), csrf: newSecret() });

export type SessionState = 'live' | 'idle' | 'expired';

/** `idle`: unused for 30 minutes; `expired`: older than 12 hours. Either ends it. */
export function sessionState(session: Pick<Session, 'createdAt' | 'lastSeenAt'>, now: Date): SessionState {
  if (now.getTime() - Date.parse(session.createdAt) >= SESSION_ABSOLUTE_MS) return 'expired';
  if (now.getTime() - Date.parse(session.lastSeenAt) >= SESSION_IDLE_MS) return 'idle';
  return 'live';
}

/** When the store may forget the session: the earlier of its idle and its absolute end. */
export function sessionEnd(session: Pick<Session, 'createdAt' | 'lastSeenAt'>): Date {
  return new Date(Math.min(Date.parse(session.lastSeenAt) + SESSION_IDLE_MS, Date.parse(session.createdAt) + SESSION_ABSOLUTE_MS));
}

/** The synchroniser token check: the form's token must be this session's. */
export const csrfMatches = (session: Pick<Session, 'csrf'>, submitted: unknown): boolean => typeof submitted === 'string' && sameSecret(session.csrf, submitted);

/** Whether the member proved a passkey within `withinMs` (STEP_UP_MS by default). */
export function recentPasskey(session: Pick<Session, 'passkeyAt'>, now: Date, withinMs = STEP_UP_MS): boolean {
  return session.passkeyAt !== undefined && now.getTime() - Date.parse(session.passkeyAt) < withinMs;
}
