import { html, type Html } from '../html/html';
import type { DashboardRequest } from '../http/dashboard-route';
import { csrfField } from '../pages/layout';

/**
 * A form the script turns into a passkey ceremony: it runs the browser's WebAuthn call with `options`, puts the
 * answer in `credential` and submits. Without the script the form arrives empty and is answered that passkeys
 * need JavaScript.
 */
export function passkeyForm(request: DashboardRequest, kind: 'register' | 'authenticate', action: string, options: unknown, label: string): Html {
  return html`<form method="post" action="${action}" data-passkey="${kind}" data-options="${JSON.stringify(options)}">
  ${csrfField(request)}
  <input type="hidden" name="credential" value="">
  <p class="error" role="alert" data-passkey-error="${request.t('error.passkey')}" hidden></p>
  <button type="submit">${label}</button>
</form>`;
}

/** The passkey answer a form posted, parsed; undefined when the script did not run or sent no JSON. */
export function postedCredential(request: DashboardRequest): unknown {
  try {
    return request.form.credential ? JSON.parse(request.form.credential) : undefined;
  } catch {
    return undefined;
  }
}

/** Every sign-in, redemption and recovery attempt counts against the address and, when known, the account. */
export function tooManyAttempts(limits: { perAddress: { attempt(key: string, now: Date): number }; perAccount: { attempt(key: string, now: Date): number } }, request: DashboardRequest, account?: string): number {
  const byAddress = limits.perAddress.attempt(`address:${request.ip}`, request.now);
  const byAccount = account ? limits.perAccount.attempt(`account:${account}`, request.now) : 0;
  return Math.max(byAddress, byAccount);
}
