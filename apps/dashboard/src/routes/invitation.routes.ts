import { randomUUID } from 'node:crypto';
import { DomainError } from '@pss/kernel';
import { registrationOptions, verifiedRegistration } from '../access/passkey-ceremony';
import { newRecoveryCodes } from '../access/recovery-codes';
import { html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest, type DashboardRoute } from '../http/dashboard-route';
import { NO_STORE } from '../http/security-headers';
import { errorPage, layout } from '../pages/layout';
import { passkeyForm, postedCredential, tooManyAttempts } from './passkey-form';
import type { RouteDeps } from './route-deps';

const invalid = (request: DashboardRequest) => errorPage(request, 404, request.t('invitation.invalid'));

/**
 * The invitation link: GET only shows it (a mail scanner opening the link spends nothing); the button registers
 * the first passkey and POSTs, which redeems the invitation, signs the owner in and shows the recovery codes once.
 */
export function invitationRoutes({ access, rp, limits }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '/invitations/:token',
      access: 'public',
      async handle(request) {
        const invitation = await access.openInvitation(request.params.token, request.now);
        if (!invitation) return invalid(request);
        const existing = await access.memberOf(invitation);
        const memberId = existing?._id ?? randomUUID();
        const options = await registrationOptions(rp, { memberId, email: invitation.email }, existing ? Object.values(existing.passkeys) : []);
        request.session.pending = { challenge: options.challenge, purpose: 'redeem', invitationHash: invitation.hash, memberId };
        const { t } = request;
        return {
          page: layout(
            request,
            t('invitation.title'),
            html`<p>${invitation.role.kind === 'organization-owner'
              ? t('invitation.intro', { organization: invitation.organizationName, email: invitation.email })
              : t('invitation.member-intro', { organization: invitation.organizationName, email: invitation.email, role: t(`role.${invitation.role.kind}` as MessageKey) })}</p>
<p>${t('invitation.how')}</p>
${passkeyForm(request, 'register', dashboardPath(`/invitations/${request.params.token}`), options, t('invitation.accept'))}`,
          ),
        };
      },
    },
    {
      method: 'POST',
      path: '/invitations/:token',
      access: 'public',
      async handle(request, session) {
        const wait = tooManyAttempts(limits, request);
        if (wait) return { ...errorPage(request, 429, request.t('error.rate-limited', { seconds: wait })), headers: { 'retry-after': String(wait) } };
        const invitation = await access.openInvitation(request.params.token, request.now);
        const { pending } = request.session;
        request.session.pending = undefined;
        if (!invitation) return invalid(request);
        const answer = postedCredential(request);
        if (answer === undefined) return errorPage(request, 400, request.t('error.javascript'));
        const passkey = pending?.purpose === 'redeem' && pending.invitationHash === invitation.hash ? await verifiedRegistration(rp, pending.challenge, answer, request.now) : null;
        if (!passkey) return errorPage(request, 400, request.t('error.passkey'));
        const { codes, hashes } = newRecoveryCodes();
        let member;
        try {
          member = await access.redeem(invitation, pending!.memberId!, passkey, hashes, request.now);
        } catch (error) {
          // Two tabs redeeming at once: the second finds it used.
          if (error instanceof DomainError && error.code === 'conflict') return invalid(request);
          throw error;
        }
        session.signIn(member, true);
        return { page: recoveryCodesPage(request, codes), headers: NO_STORE };
      },
    },
  ];
}

/** Shown once, on the redemption's answer itself: the codes are never stored in clear, so no later page can show them. */
function recoveryCodesPage(request: DashboardRequest, codes: string[]) {
  const { t } = request;
  return layout(
    request,
    t('recovery-codes.title'),
    html`<p>${t('recovery-codes.intro')}</p>
<ol class="codes" id="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>
`)}</ol>
<p><button type="button" class="secondary" data-copy="recovery-codes" data-copied="${t('copy.done')}" data-needs-script hidden>${t('recovery-codes.copy')}</button></p>
<p><a href="${dashboardPath('')}">${t('recovery-codes.continue')}</a></p>`,
  );
}
