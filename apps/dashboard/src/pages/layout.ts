import { html, type Html } from '../html/html';
import { LOCALES, type MessageKey } from '../i18n/catalogue';
import { showTime } from '../i18n/dates';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { currentness } from '../navigation/current-page';

/** The hidden field every form carries: the session's CSRF token, without which a POST is refused with 403. */
export const csrfField = (request: DashboardRequest): Html => html`<input type="hidden" name="_csrf" value="${request.session.csrf}">`;

/** A time in the organization's zone, UTC on hover. */
export function time(request: DashboardRequest, at: string, timeZone?: string): Html {
  const shown = showTime(at, request.locale, timeZone);
  return html`<time datetime="${shown.iso}" title="${request.t('time.utc', { utc: shown.utc })}">${shown.local}</time>`;
}

/** Links the switcher offers: the same page in the other language (the choice is kept in a cookie). */
function languageSwitcher(request: DashboardRequest): Html {
  const path = request.url.split('?')[0];
  const links = LOCALES.map((locale) =>
    locale === request.locale
      ? html`<li><span aria-current="true" lang="${locale}">${request.t(`language.${locale}` as MessageKey)}</span></li>`
      : html`<li><a href="${path}?lang=${locale}" lang="${locale}" hreflang="${locale}">${request.t(`language.${locale}` as MessageKey)}</a></li>`,
  );
  return html`<nav class="languages" aria-label="${request.t('language.label')}"><ul>${links}</ul></nav>`;
}

/** A link of the navigation, marked with `aria-current` when it is the page shown or the section it lies in. */
function navLink(request: DashboardRequest, path: string, label: MessageKey): Html {
  const href = dashboardPath(path);
  const current = currentness(request.url, href, dashboardPath(''));
  return html`<li><a href="${href}"${current ? html` aria-current="${current}"` : null}>${request.t(label)}</a></li>`;
}

/** The navigation of a signed-in person: only pages that exist. */
function navigation(request: DashboardRequest): Html | null {
  if (!request.signedIn) return null;
  return html`<nav class="main-nav" aria-label="${request.t('app.dashboard')}"><ul>
      ${navLink(request, '', 'nav.home')}
      ${navLink(request, '/passkeys', 'nav.passkeys')}
      ${navLink(request, '/members', 'nav.members')}
      ${request.signedIn.member.role.kind === 'organization-owner' ? navLink(request, '/organizations', 'nav.partners') : null}
      ${navLink(request, '/tokens', 'nav.tokens')}
      ${navLink(request, '/channels', 'nav.channels')}
      ${navLink(request, '/webhooks', 'nav.webhooks')}
      ${navLink(request, '/review', 'nav.review')}
      ${navLink(request, '/inventory', 'nav.inventory')}
      ${request.signedIn.member.role.kind === 'organization-owner' ? navLink(request, '/audit-log', 'nav.audit-log') : null}
      ${navLink(request, '/alerts', 'nav.alerts')}
      ${navLink(request, '/page-as-of', 'nav.page-as-of')}
      ${navLink(request, '/reports', 'nav.reports')}
      ${navLink(request, '/policies', 'nav.policies')}
      ${navLink(request, '/rules', 'nav.rules')}
    </ul>
    <form method="post" action="${dashboardPath('/sign-out')}">${csrfField(request)}<button type="submit">${request.t('sign-out')}</button></form>
  </nav>`;
}

/** Every page: the stylesheet and script from /dashboard/assets, no inline code, the notice left by the last POST. */
export function layout(request: DashboardRequest, title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="${request.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${request.t('app.name')}</title>
<link rel="stylesheet" href="${dashboardPath('/assets/dashboard.css')}">
<script src="${dashboardPath('/assets/dashboard.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">${request.t('nav.skip')}</a>
<header>
<p class="brand">${request.t('app.name')}</p>
${navigation(request)}
${languageSwitcher(request)}
</header>
<main id="main">
<h1>${title}</h1>
${request.notice ? html`<p class="notice" role="status">${request.notice}</p>` : null}
${body}
</main>
</body>
</html>`;
}

/** An error page in the layout: the message key says what happened, the status how. */
export const errorPage = (request: DashboardRequest, status: number, message: string) => ({ status, page: layout(request, request.t('error.title'), html`<p class="error" role="alert">${message}</p>`) });
