import { answeredCredentialId, authenticationOptions, verifiedAuthentication } from '../access/passkey-ceremony';
import { recoveryCodeHash } from '../access/recovery-codes';
import { REQUIRES_MEMBER } from '../access/roles';
import { passkeyOf } from '../access/members.read-model';
import { html } from '../html/html';
import { dashboardPath, type DashboardRequest, type DashboardRoute } from '../http/dashboard-route';
import { csrfField, errorPage, layout } from '../pages/layout';
import { passkeyForm, postedCredential, tooManyAttempts } from './passkey-form';
import type { RouteDeps } from './route-deps';

const SIGN_IN = dashboardPath('/sign-in');
const HOME = dashboardPath('');

const rateLimited = (request: DashboardRequest, seconds: number) => ({ ...errorPage(request, 429, request.t('error.rate-limited', { seconds })), headers: { 'retry-after': String(seconds) } });

/** Sign-in with a passkey (no e-mail asked: the passkey is discoverable) or a recovery code, and sign-out. */
export function signInRoutes({ access, rp, limits }: RouteDeps): DashboardRoute[] {
  return [
    {
      method: 'GET',
      path: '/sign-in',
      access: 'public',
      async handle(request) {
        if (request.signedIn) return { redirect: HOME };
        const options = await authenticationOptions(rp);
        request.session.pending = { challenge: options.challenge, purpose: 'sign-in' };
        const { t } = request;
        return {
          page: layout(
            request,
            t('sign-in.title'),
            html`${passkeyForm(request, 'authenticate', dashboardPath('/sign-in/passkey'), options, t('sign-in.passkey'))}
<section aria-labelledby="recovery">
<h2 id="recovery">${t('sign-in.recovery.title')}</h2>
<form method="post" action="${dashboardPath('/sign-in/recovery')}">
${csrfField(request)}
<label for="email">${t('sign-in.recovery.email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<label for="code">${t('sign-in.recovery.code')}</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" spellcheck="false" required>
<p><button type="submit" class="secondary">${t('sign-in.recovery.submit')}</button></p>
</form>
</section>`,
          ),
        };
      },
    },
    {
      method: 'POST',
      path: '/sign-in/passkey',
      access: 'public',
      async handle(request, session) {
        const { pending } = request.session;
        request.session.pending = undefined;
        const answer = postedCredential(request);
        const credentialId = answeredCredentialId(answer);
        const member = credentialId ? await access.byPasskey(credentialId) : null;
        const wait = tooManyAttempts(limits, request, member?.email);
        if (wait) return rateLimited(request, wait);
        if (answer === undefined) return errorPage(request, 400, request.t('error.javascript'));
        const passkey = member && credentialId ? passkeyOf(member, credentialId) : undefined;
        const counter = pending?.purpose === 'sign-in' && passkey ? await verifiedAuthentication(rp, pending.challenge, answer, passkey) : null;
        if (!member || counter === null) {
          session.flash('error.passkey');
          return { redirect: SIGN_IN };
        }
        await access.usePasskey(member, credentialId!, counter, request.now);
        session.signIn(member, true);
        return { redirect: HOME };
      },
    },
    {
      method: 'POST',
      path: '/sign-in/recovery',
      access: 'public',
      async handle(request, session) {
        const email = (request.form.email ?? '').trim().toLowerCase();
        const wait = tooManyAttempts(limits, request, email);
        if (wait) return rateLimited(request, wait);
        const hash = recoveryCodeHash(request.form.code ?? '');
        const member = (await access.byEmail(email)).find((candidate) => candidate.recovery_code_hashes.includes(hash));
        if (!member) {
          session.flash('error.recovery');
          return { redirect: SIGN_IN };
        }
        await access.useRecoveryCode(member, hash, request.now);
        session.signIn(member, false);
        session.flash('sign-in.recovery.used', { count: member.recovery_code_hashes.length - 1 });
        return { redirect: HOME };
      },
    },
    {
      method: 'POST',
      path: '/sign-out',
      access: REQUIRES_MEMBER,
      async handle(_request, session) {
        session.signOut();
        session.flash('signed-out');
        return { redirect: SIGN_IN };
      },
    },
  ];
}
