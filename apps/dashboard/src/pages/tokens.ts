import { READ_ONLY_SCOPES, READ_ONLY_SHORTCUT, TOKEN_NAME_MAX, type IssuedToken, type TokenListItem } from '@pss/contracts';
import { html, type Html } from '../html/html';
import type { MessageKey } from '../i18n/catalogue';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import { NO_EXPIRY, SCOPE_CHOICES, scopeField, VALIDITY_CHOICES, type TokenField, type TokenFormErrors, type TokenFormValues } from '../tokens/token-form';
import { csrfField, layout, time } from './layout';

export const TOKENS = dashboardPath('/tokens');
export const NEW_TOKEN = dashboardPath('/tokens/new');
export const revokePath = (prefix: string): string => dashboardPath(`/tokens/${encodeURIComponent(prefix)}/revoke`);

const createButton = (request: DashboardRequest): Html => html`<p><a class="button" href="${NEW_TOKEN}">${request.t('tokens.create')}</a></p>`;

/**
 * The organization's tokens for its owner; anyone else sees the create button (the spec has them refused only
 * when they use it) and, instead of the list, the spec's message.
 */
export function tokenListPage(request: DashboardRequest, tokens: TokenListItem[] | 'not-owner'): Html {
  const { t } = request;
  const body =
    tokens === 'not-owner'
      ? html`<p class="error" role="alert">${t('tokens.owner-only')}</p>`
      : tokens.length
        ? tokenTable(request, tokens)
        : html`<p>${t('tokens.none')}</p>`;
  return layout(request, t('tokens.title'), html`<p>${t('tokens.intro')}</p>${createButton(request)}${body}`);
}

function tokenTable(request: DashboardRequest, tokens: TokenListItem[]): Html {
  const { t } = request;
  const rows = tokens.map(
    (token) => html`<tr>
<td>${token.name}</td>
<td><code>${token.prefix}</code></td>
<td>${token.scopes.map((scope, index) => html`${index ? ', ' : ''}<code>${scope}</code>`)}</td>
<td>${token.last_used_at ? time(request, token.last_used_at) : t('tokens.never-used')}</td>
<td>${token.expires_at ? time(request, token.expires_at) : t('tokens.no-expiry')}</td>
<td>${t(`tokens.status.${token.status}` as MessageKey)}</td>
<td>${token.status === 'Revoked' ? null : html`<a href="${revokePath(token.prefix)}" aria-label="${t('tokens.revoke.named', { name: token.name })}">${t('tokens.revoke')}</a>`}</td>
</tr>`,
  );
  const column = (key: MessageKey) => html`<th scope="col">${t(key)}</th>`;
  return html`<table>
<thead><tr>${column('tokens.column.name')}${column('tokens.column.prefix')}${column('tokens.column.scopes')}${column('tokens.column.last-used')}${column('tokens.column.expires')}${column('tokens.column.status')}${column('tokens.column.actions')}</tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/** A field's error, tied to the field by `aria-describedby` so a screen reader reads it with the field. */
function fieldError(request: DashboardRequest, errors: TokenFormErrors, field: TokenField): Html | null {
  const error = errors[field];
  return error ? html`<p class="error" id="${field}-error">${request.t(error.key, error.params)}</p>` : null;
}

const invalid = (errors: TokenFormErrors, field: TokenField, described: string[] = []): Html => {
  const ids = errors[field] ? [...described, `${field}-error`] : described;
  return html`${errors[field] ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}`;
};

/** The create form: a name, the scopes (the read-only shortcut first), the validity. */
export function newTokenPage(request: DashboardRequest, values: TokenFormValues, errors: TokenFormErrors): Html {
  const { t } = request;
  const scopeLabel = (scope: string) => (scope === READ_ONLY_SHORTCUT ? t('tokens.field.read-only', { scopes: READ_ONLY_SCOPES.join(', ') }) : scope);
  const checkboxes = SCOPE_CHOICES.map((scope) => {
    const id = `scope-${scope.replace(/[^a-z]/g, '-')}`;
    return html`<div class="choice"><input type="checkbox" id="${id}" name="${scopeField(scope)}" value="on"${values.scopes.includes(scope) ? html` checked` : ''}> <label for="${id}">${scopeLabel(scope)}</label></div>`;
  });
  const options = VALIDITY_CHOICES.map(
    (choice) =>
      html`<option value="${choice}"${values.validity === choice ? html` selected` : ''}>${choice === NO_EXPIRY ? t('tokens.validity.none') : t('tokens.validity.days', { days: choice })}</option>`,
  );
  const hasErrors = Object.keys(errors).length > 0;
  return layout(
    request,
    t('tokens.new.title'),
    html`${hasErrors ? html`<p class="error" role="alert">${t('tokens.error.summary')}</p>` : null}
<form method="post" action="${TOKENS}" novalidate>
${csrfField(request)}
<label for="name">${t('tokens.field.name')}</label>
<p class="hint" id="name-hint">${t('tokens.field.name-hint', { max: TOKEN_NAME_MAX })}</p>
${fieldError(request, errors, 'name')}
<input type="text" id="name" name="name" maxlength="${TOKEN_NAME_MAX}" value="${values.name}" autocomplete="off"${invalid(errors, 'name', ['name-hint'])}>
<fieldset${errors.scopes ? html` aria-describedby="scopes-error"` : ''}>
<legend>${t('tokens.field.scopes')}</legend>
${fieldError(request, errors, 'scopes')}
${checkboxes}
</fieldset>
<label for="validity">${t('tokens.field.validity')}</label>
${fieldError(request, errors, 'validity')}
<select id="validity" name="validity"${invalid(errors, 'validity')}>${options}</select>
<p><button type="submit">${t('tokens.submit')}</button> <a href="${TOKENS}">${t('tokens.cancel')}</a></p>
</form>`,
  );
}

/** The token, on the creation's answer itself and nowhere else: only its hash is kept, so no later page can show it. */
export function issuedTokenPage(request: DashboardRequest, issued: IssuedToken): Html {
  const { t } = request;
  // A redelivered command's answer reached us first: the token exists, its secret was the other delivery's to show.
  if (issued.token === null) {
    return layout(
      request,
      t('tokens.issued.title'),
      html`<p class="error" role="alert">${t('tokens.issued.unshown', { name: issued.name })}</p>
<p><a class="button" href="${revokePath(issued.prefix)}">${t('tokens.revoke.title')}</a> <a href="${TOKENS}">${t('tokens.cancel')}</a></p>`,
    );
  }
  return layout(
    request,
    t('tokens.issued.title'),
    html`<p>${t('tokens.issued.intro')}</p>
<p>${t('tokens.issued.label', { name: issued.name })}</p>
<p class="secret"><code id="new-token">${issued.token}</code></p>
<p><button type="button" class="secondary" data-copy="new-token" data-copied="${t('copy.done')}" data-needs-script hidden>${t('tokens.issued.copy')}</button></p>
<p><a href="${TOKENS}">${t('tokens.issued.done')}</a></p>`,
  );
}

/** Revoking asks once more: it cannot be undone, and every caller using the token is refused from then on. */
export function revokeTokenPage(request: DashboardRequest, token: TokenListItem): Html {
  const { t } = request;
  return layout(
    request,
    t('tokens.revoke.title'),
    html`<p>${t('tokens.revoke.intro', { name: token.name, prefix: token.prefix })}</p>
<form method="post" action="${revokePath(token.prefix)}">
${csrfField(request)}
<p><button type="submit">${t('tokens.revoke.confirm')}</button> <a href="${TOKENS}">${t('tokens.cancel')}</a></p>
</form>`,
  );
}
