import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import type { ReadStore } from '@pss/read-store';
import { actsIn, allows } from '../access/roles';
import { csrfMatches, newSession } from '../access/session';
import { newSecret } from '../access/secrets';
import { DASHBOARD_MEMBERS, type MemberDocument } from '../access/members.read-model';
import { LOCALES, translator, type MessageKey } from '../i18n/catalogue';
import { negotiateLocale } from '../i18n/locale';
import { errorPage } from '../pages/layout';
import { parseCookies, serializeCookie } from './cookies';
import { DASHBOARD_PREFIX, dashboardPath, type DashboardAnswer, type DashboardRequest, type DashboardRoute, type SessionControl, type SignedIn } from './dashboard-route';
import { NO_STORE, securityHeaders } from './security-headers';
import { SESSION_COOKIE, type SessionStore } from './session-store';
import { serveAssets } from '../assets/assets';

/** The language switcher's cookie: a preference, readable by nothing but the server, kept a year. */
const LANGUAGE_COOKIE = '__Host-pss-lang';
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600;

export interface DashboardServer {
  routes: DashboardRoute[];
  sessions: SessionStore;
  readStore: ReadStore;
  now: () => Date;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/**
 * Mounts the dashboard under /dashboard on the gateway's Fastify: one encapsulated scope with its own form parser,
 * security headers on every answer (errors and 404s included) and each route behind the same checks, in order:
 * language, session, CSRF on every POST, sign-in, role. Routes only render and redirect.
 */
export function mountDashboard(fastify: FastifyInstance, server: DashboardServer): void {
  void fastify.register(
    async (scope) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())));
      });
      scope.addHook('onSend', async (_request, reply, payload) => {
        reply.headers(securityHeaders());
        return payload;
      });
      scope.setNotFoundHandler((request, reply) => answer(server, request, reply, notFoundRoute));
      scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
        server.log('dashboard request failed', { error: error.message, path: request.routeOptions.url });
        return answer(server, request, reply, failedRoute(error.statusCode === 400 || error.statusCode === 413 || error.statusCode === 415 ? 400 : 500));
      });
      serveAssets(scope, server);
      for (const route of server.routes) {
        scope.route({ method: route.method, url: route.path === '' ? '/' : route.path, handler: (request, reply) => answer(server, request, reply, route) });
      }
    },
    { prefix: DASHBOARD_PREFIX },
  );
}

const notFoundRoute: DashboardRoute = { method: 'GET', path: '*', access: 'public', handle: async (request) => errorPage(request, 404, request.t('error.not-found')) };
const failedRoute = (status: number): DashboardRoute => ({ method: 'GET', path: '*', access: 'public', handle: async (request) => errorPage(request, status, request.t('error.unexpected')) });

async function answer(server: DashboardServer, request: FastifyRequest, reply: FastifyReply, route: DashboardRoute): Promise<FastifyReply> {
  const now = server.now();
  const cookies = parseCookies(request.headers.cookie);
  const query = stringsOf(request.query);
  const locale = negotiateLocale({ query: query.lang, cookie: cookies[LANGUAGE_COOKIE], acceptLanguage: request.headers['accept-language'] });
  const setCookies: string[] = [];
  if (query.lang && (LOCALES as readonly string[]).includes(query.lang)) setCookies.push(serializeCookie(LANGUAGE_COOKIE, locale, { maxAgeSeconds: LANGUAGE_COOKIE_SECONDS }));

  const loaded = await server.sessions.load(cookies[SESSION_COOKIE], now);
  let { id, session } = loaded;
  let rotated = loaded.fresh;
  const flash = session.flash ?? (loaded.expired ? { key: 'session.expired' } : undefined);
  session = { ...session, flash: undefined };
  const t = translator(locale);
  const dashboardRequest: DashboardRequest = {
    locale,
    t,
    now,
    url: request.url,
    params: stringsOf(request.params),
    query,
    form: request.method === 'POST' ? stringsOf(request.body) : {},
    ip: request.ip,
    session,
    signedIn: session.member ? await signedIn(server.readStore, session.member.memberId, session.actingOrgId) : undefined,
    notice: flash ? t(flash.key as MessageKey, flash.params) : undefined,
  };
  const control: SessionControl = {
    signIn(member, withPasskey) {
      void server.sessions.end(id, now);
      id = newSecret();
      rotated = true;
      session = { ...newSession(now), member: { orgId: member.org_id, memberId: member._id, email: member.email }, passkeyAt: withPasskey ? now.toISOString() : undefined };
      dashboardRequest.session = session;
    },
    signOut() {
      void server.sessions.end(id, now);
      id = newSecret();
      rotated = true;
      session = newSession(now);
    },
    flash(key, params) {
      session.flash = { key, params };
    },
  };

  let result: DashboardAnswer;
  if (route.method === 'POST' && !csrfMatches(session, dashboardRequest.form._csrf)) {
    result = errorPage(dashboardRequest, 403, t('error.csrf'));
  } else if (route.access !== 'public' && !dashboardRequest.signedIn) {
    result = { redirect: dashboardPath('/sign-in') };
  } else if (route.access !== 'public' && !allows(dashboardRequest.signedIn!.member.role, route.access)) {
    result = errorPage(dashboardRequest, 403, t('error.forbidden'));
  } else {
    result = await route.handle(dashboardRequest, control);
  }

  await server.sessions.save(id, session, now);
  if (rotated) setCookies.push(serializeCookie(SESSION_COOKIE, id));
  if (setCookies.length) reply.header('set-cookie', setCookies);
  // A signed-in page shows a person's data: kept by no cache.
  reply.headers(NO_STORE);
  if ('redirect' in result) return reply.code(303).header('location', result.redirect).send();
  if ('json' in result) return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result.json));
  if ('download' in result) {
    const { filename, contentType, chunks } = result.download;
    return reply.header('content-type', contentType).header('content-disposition', `attachment; filename="${filename}"`).send(Readable.from(chunks));
  }
  return reply
    .code(result.status ?? 200)
    .headers(result.headers ?? {})
    .header('content-type', 'text/html; charset=utf-8')
    .send(result.page.text);
}

async function signedIn(readStore: ReadStore, memberId: string, actingOrgId: string | undefined): Promise<SignedIn | undefined> {
  const member = await readStore.collection<MemberDocument>(DASHBOARD_MEMBERS).findOne({ _id: memberId });
  if (!member) return undefined;
  const organizations = readStore.collection<OrganizationDocument>(ORGANIZATIONS);
  const own = await organizations.findOne({ _id: member.org_id });
  const ownView = { id: member.org_id, name: own?.name ?? member.org_id };
  // Checked on every request: a member who is no longer the partner's owner stops acting in its children.
  const child = actingOrgId ? await organizations.findOne({ _id: actingOrgId }) : null;
  if (!child || !actsIn(member, child)) return { member, organization: ownView };
  return { member, organization: { id: child._id, name: child.name }, partner: ownView };
}

/** Query, params and form fields as strings: a repeated field keeps its first value. */
function stringsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => {
      const first = Array.isArray(field) ? field[0] : field;
      return typeof first === 'string' ? [[key, first]] : [];
    }),
  );
}
