import type { Html } from '../html/html';
import type { Locale, MessageKey, Translate } from '../i18n/catalogue';
import type { Requirement } from '../access/roles';
import type { Session } from '../access/session';
import type { MemberDocument } from '../access/members.read-model';

/** The signed-in person on a request: their membership as the read model has it now, and their organization. */
export interface SignedIn {
  member: MemberDocument;
  organization: { id: string; name: string };
  /** Set while a partner's owner acts in a child organization (`organization`): the partner, their own. */
  partner?: { id: string; name: string };
}

/** What a route handler gets: the request as the dashboard reads it, already past the session, CSRF and role checks. */
export interface DashboardRequest {
  locale: Locale;
  t: Translate;
  now: Date;
  /** The path asked for, with its query: where a step-up returns to. */
  url: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** A POST's form fields (application/x-www-form-urlencoded). */
  form: Record<string, string>;
  /** The client's address, as TRUST_PROXY lets the service tell it: rate limits key on it. */
  ip: string;
  session: Session;
  signedIn?: SignedIn;
  /** The notice the previous POST left (`SessionControl.flash`), shown once. */
  notice?: string;
}

/**
 * A handler's answer: a page (200 unless `status`), or a redirect (303, POST-redirect-GET), or a file to save (an
 * export, streamed in chunks), or JSON for the page's own script to poll (text it shows as it is). `headers` adds to the security headers every answer carries, `Cache-Control:
 * no-store` for a page showing a secret.
 */
export type DashboardAnswer = { page: Html; status?: number; headers?: Record<string, string> } | { redirect: string } | { download: Download } | { json: unknown };

/** A file the browser saves as `filename` (an export): its content type and its text, chunk by chunk. */
export interface Download {
  filename: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

/** A page or action of the dashboard. */
export interface DashboardRoute {
  method: 'GET' | 'POST';
  /** Under /dashboard, in Fastify's syntax (`/invitations/:token`). */
  path: string;
  /** `public` for the pages before sign-in; anything else needs a session and the role (roles.ts) it names. */
  access: 'public' | Requirement;
  handle(request: DashboardRequest, session: SessionControl): Promise<DashboardAnswer>;
}

/** What a handler may change of the session beyond its fields: who it belongs to, and the notice for the next page. */
export interface SessionControl {
  /** Rotates the session id (no fixation) and makes it the member's; `withPasskey` counts as a passkey check. */
  signIn(member: MemberDocument, withPasskey: boolean): void;
  signOut(): void;
  flash(key: MessageKey, params?: Record<string, string | number>): void;
}

export const DASHBOARD_PREFIX = '/dashboard';
export const dashboardPath = (path: string): string => `${DASHBOARD_PREFIX}${path}`;
