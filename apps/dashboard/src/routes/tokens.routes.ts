import { COMMANDS, type IssuedToken, type IssueTokenRequest, type RevokeTokenRequest, type TokenListItem } from '@pss/contracts';
import { listTokens } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { REQUIRES_MEMBER } from '../access/roles';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import { NO_STORE } from '../http/security-headers';
import { errorPage } from '../pages/layout';
import { issuedTokenPage, NEW_TOKEN, newTokenPage, revokePath, revokeTokenPage, tokenListPage, TOKENS } from '../pages/tokens';
import { EMPTY_TOKEN_FORM, parseTokenForm } from '../tokens/token-form';
import { isOrganizationOwner, organizationOwnerOnly } from './owner-only';
import { actorOf, type RouteDeps } from './route-deps';
import { requireRecentPasskey } from './step-up.routes';

/**
 * API tokens (spec, Authentication 4 and 5): only the organization owner creates, lists and revokes them. The
 * routes admit every member so that the others get the spec's message rather than a generic refusal; creating and
 * revoking also need a passkey proved in the last 5 minutes.
 */
export function tokensRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  /** The refusal of anyone but the organization owner, checked on every route before anything else. */
  const notOwner = (request: DashboardRequest) => organizationOwnerOnly(request, 'tokens.owner-only');

  const tokenOf = async (request: DashboardRequest): Promise<TokenListItem | undefined> =>
    (await listTokens(readStore, request.signedIn!.organization.id, request.now)).find((token) => token.prefix === request.params.prefix);

  return [
    {
      method: 'GET',
      path: '/tokens',
      access: REQUIRES_MEMBER,
      async handle(request) {
        if (!isOrganizationOwner(request)) return { page: tokenListPage(request, 'not-owner') };
        return { page: tokenListPage(request, await listTokens(readStore, request.signedIn!.organization.id, request.now)) };
      },
    },
    {
      method: 'GET',
      path: '/tokens/new',
      access: REQUIRES_MEMBER,
      async handle(request) {
        return notOwner(request) ?? requireRecentPasskey(request, NEW_TOKEN) ?? { page: newTokenPage(request, EMPTY_TOKEN_FORM, {}) };
      },
    },
    {
      method: 'POST',
      path: '/tokens',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const refused = notOwner(request) ?? requireRecentPasskey(request, NEW_TOKEN);
        if (refused) return refused;
        const parsed = parseTokenForm(request.form);
        if (!parsed.request) return { status: 400, page: newTokenPage(request, parsed.values, parsed.errors) };
        const { member, organization } = request.signedIn!;
        const command: IssueTokenRequest = { orgId: organization.id, ...parsed.request };
        const issued = await bus.request<IssuedToken>(COMMANDS.tokenIssue, command, { actor: actorOf(member) });
        return { page: issuedTokenPage(request, issued), headers: NO_STORE };
      },
    },
    {
      method: 'GET',
      path: '/tokens/:prefix/revoke',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const refused = notOwner(request) ?? requireRecentPasskey(request);
        if (refused) return refused;
        const token = await tokenOf(request);
        if (!token) return errorPage(request, 404, request.t('error.not-found'));
        if (token.status === 'Revoked') return { redirect: TOKENS };
        return { page: revokeTokenPage(request, token) };
      },
    },
    {
      method: 'POST',
      path: '/tokens/:prefix/revoke',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const refused = notOwner(request) ?? requireRecentPasskey(request, revokePath(request.params.prefix));
        if (refused) return refused;
        const { member, organization } = request.signedIn!;
        const command: RevokeTokenRequest = { orgId: organization.id, prefix: request.params.prefix };
        try {
          const revoked = await bus.request<TokenListItem>(COMMANDS.tokenRevoke, command, { actor: actorOf(member) });
          session.flash('tokens.revoked', { name: revoked.name });
        } catch (error) {
          // Another organization's token, or none: the revoke command looks it up in the acting organization only.
          if (error instanceof DomainError && error.code === 'not_found') return errorPage(request, 404, request.t('error.not-found'));
          throw error;
        }
        return { redirect: TOKENS };
      },
    },
  ];
}
