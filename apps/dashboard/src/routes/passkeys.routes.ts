import { registrationOptions, verifiedRegistration } from '../access/passkey-ceremony';
import { REQUIRES_MEMBER } from '../access/roles';
import { html } from '../html/html';
import { dashboardPath, type DashboardRoute } from '../http/dashboard-route';
import { errorPage, layout, time } from '../pages/layout';
import { passkeyForm, postedCredential } from './passkey-form';
import type { RouteDeps } from './route-deps';

const PASSKEYS = dashboardPath('/passkeys');

/**
 * A member's passkeys, and adding one. Adding needs no step-up: a member who lost their passkey signs in with a
 * recovery code precisely to add a new one.
 */
export function passkeysRoutes({ access, rp }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '/passkeys',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const { t } = request;
        const { member } = request.signedIn!;
        const passkeys = Object.values(member.passkeys);
        const options = await registrationOptions(rp, { memberId: member._id, email: member.email }, passkeys);
        request.session.pending = { challenge: options.challenge, purpose: 'add-passkey' };
        const rows = passkeys.map(
          (passkey) => html`<tr><td><code>${passkey.id.slice(0, 12)}…</code></td><td>${time(request, passkey.createdAt)}</td><td>${passkey.lastUsedAt ? time(request, passkey.lastUsedAt) : t('passkeys.never')}</td></tr>`,
        );
        return {
          page: layout(
            request,
            t('passkeys.title'),
            html`<p>${t('passkeys.intro')}</p>
<table><thead><tr><th scope="col">ID</th><th scope="col">${t('passkeys.created')}</th><th scope="col">${t('passkeys.last-used')}</th></tr></thead><tbody>${rows}</tbody></table>
${passkeyForm(request, 'register', PASSKEYS, options, t('passkeys.add'))}`,
          ),
        };
      },
    },
    {
      method: 'POST',
      path: '/passkeys',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const { pending } = request.session;
        request.session.pending = undefined;
        const answer = postedCredential(request);
        if (answer === undefined) return errorPage(request, 400, request.t('error.javascript'));
        const passkey = pending?.purpose === 'add-passkey' ? await verifiedRegistration(rp, pending.challenge, answer, request.now) : null;
        if (!passkey) return errorPage(request, 400, request.t('error.passkey'));
        await access.addPasskey(request.signedIn!.member, passkey, request.now);
        session.flash('passkeys.added');
        return { redirect: PASSKEYS };
      },
    },
  ];
}
