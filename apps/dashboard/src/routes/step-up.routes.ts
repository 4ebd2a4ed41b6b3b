import { answeredCredentialId, authenticationOptions, verifiedAuthentication } from '../access/passkey-ceremony';
import { passkeyOf } from '../access/members.read-model';
import { REQUIRES_MEMBER } from '../access/roles';
import { recentPasskey } from '../access/session';
import { html } from '../html/html';
import { dashboardPath, type DashboardAnswer, type DashboardRequest, type DashboardRoute } from '../http/dashboard-route';
import { errorPage, layout } from '../pages/layout';
import { passkeyForm, postedCredential } from './passkey-form';
import type { RouteDeps } from './route-deps';

const STEP_UP = dashboardPath('/step-up');

/** Only a path of the dashboard itself: a step-up never sends anyone elsewhere. */
const safeReturn = (target: string | undefined): string => (target && /^\/dashboard(?:[/?]|$)/.test(target) && !target.includes('//') ? target : dashboardPath(''));

/**
 * The step-up check for sensitive actions (creating or revoking a token, creating an e-mail channel, changing a
 * role): undefined when the member proved a passkey in the last 5 minutes; otherwise the redirect to the passkey
 * check, which comes back to `returnTo` (the form's page, for a POST).
 */
export function requireRecentPasskey(request: DashboardRequest, returnTo: string = request.url): DashboardAnswer | undefined {
  if (recentPasskey(request.session, request.now)) return undefined;
  return { redirect: `${STEP_UP}?return=${encodeURIComponent(safeReturn(returnTo))}` };
}

export function stepUpRoutes({ access, rp }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '/step-up',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const { t } = request;
        const options = await authenticationOptions(rp, Object.values(request.signedIn!.member.passkeys));
        request.session.pending = { challenge: options.challenge, purpose: 'step-up' };
        const action = `${STEP_UP}?return=${encodeURIComponent(safeReturn(request.query.return))}`;
        return { page: layout(request, t('step-up.title'), html`<p>${t('step-up.intro')}</p>${passkeyForm(request, 'authenticate', action, options, t('step-up.confirm'))}`) };
      },
    },
    {
      method: 'POST',
      path: '/step-up',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const { pending } = request.session;
        request.session.pending = undefined;
        const { member } = request.signedIn!;
        const answer = postedCredential(request);
        const credentialId = answeredCredentialId(answer);
        const passkey = credentialId ? passkeyOf(member, credentialId) : undefined;
        const counter = pending?.purpose === 'step-up' && passkey ? await verifiedAuthentication(rp, pending.challenge, answer, passkey) : null;
        if (counter === null) return errorPage(request, 400, request.t('error.passkey'));
        await access.usePasskey(member, passkey!.id, counter, request.now);
        request.session.passkeyAt = request.now.toISOString();
        return { redirect: safeReturn(request.query.return) };
      },
    },
  ];
}
