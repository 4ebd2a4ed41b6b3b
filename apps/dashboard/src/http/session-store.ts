import type { ReadStore } from '@pss/read-store';
import { newSecret, secretHash } from '../access/secrets';
import { newSession, sessionEnd, sessionState, type Session } from '../access/session';

/** The session cookie: `__Host-` so only this origin, over HTTPS, on path /, can set it. */
export const SESSION_COOKIE = '__Host-pss-dashboard';

/**
 * Sessions in the read store (`dashboard_sessions`): MongoDB in distributed mode, so every gateway replica sees
 * them; memory in embedded mode, where a restart signs everyone out. Stored under the hash of the cookie's value:
 * the store never holds a usable session id.
 */
const SESSIONS = 'dashboard_sessions';

type SessionDocument = Session & { _id: string; ends_at: string };

export interface LoadedSession {
  /** The cookie's value; a new one when the browser had none, or its session ended. */
  id: string;
  session: Session;
  /** The browser must be sent `id` in a new cookie. */
  fresh: boolean;
  /** A signed-in session just ended by its timeouts: the sign-in page says so. */
  expired: boolean;
}

export class SessionStore {
  constructor(private readonly store: ReadStore) {}

  private get sessions() {
    return this.store.collection<SessionDocument>(SESSIONS);
  }

  async load(cookie: string | undefined, now: Date): Promise<LoadedSession> {
    const found = cookie ? await this.sessions.findOne({ _id: secretHash(cookie) }) : null;
    if (found && sessionState(found, now) === 'live') {
      const { _id: _hash, ends_at: _endsAt, ...session } = found;
      return { id: cookie!, session, fresh: false, expired: false };
    }
    if (found) await this.sessions.deleteMany({ _id: found._id });
    return { id: newSecret(), session: newSession(now), fresh: true, expired: found?.member !== undefined };
  }

  async save(id: string, session: Session, now: Date): Promise<void> {
    const touched = { ...session, lastSeenAt: now.toISOString() };
    await this.sessions.upsert({ _id: secretHash(id), ...touched, ends_at: sessionEnd(touched).toISOString() });
  }

  /** Ends every session of a member (removed from the organization): their next request finds none. */
  async endMember(memberId: string): Promise<void> {
    await this.sessions.deleteMany({ 'member.memberId': memberId });
  }

  /** Ends a session on the server: its cookie, if replayed, finds nothing. Ended sessions are swept meanwhile. */
  async end(id: string, now: Date): Promise<void> {
    await this.sessions.deleteMany({ $or: [{ _id: secretHash(id) }, { ends_at: { $lte: now.toISOString() } }] });
  }
}
