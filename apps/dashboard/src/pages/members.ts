import type { StoreDocument } from '@pss/contracts';
import type { MemberDocument } from '../access/members.read-model';
import type { Role } from '../access/roles';
import { html, type Html } from '../html/html';
import { dashboardPath, type DashboardRequest } from '../http/dashboard-route';
import type { MessageKey } from '../i18n/catalogue';
import { lastSignIn, STORE_FIELD_PREFIX } from '../members/member-form';
import { csrfField, layout, time } from './layout';

const roleName = (request: DashboardRequest, role: Role): string => request.t(`role.${role.kind}` as MessageKey);

const storesNamed = (role: Role, stores: StoreDocument[]): string =>
  role.kind === 'store-owner' ? role.storeIds.map((id) => stores.find((store) => store._id === id)?.domain ?? id).join(', ') : '';

/** The role fields of the invitation and role forms: a radio per role, a checkbox per store of the organization. */
function roleFields(request: DashboardRequest, stores: StoreDocument[], current: Role = { kind: 'viewer' }): Html {
  const { t } = request;
  const owned = current.kind === 'store-owner' ? current.storeIds : [];
  const boxes = stores.length
    ? stores.map(
        (store) => html`<li><label><input type="checkbox" name="${STORE_FIELD_PREFIX}${store._id}" ${owned.includes(store._id) ? html`checked` : null}> ${store.domain}</label></li>`,
      )
    : html`<li>${t('members.no-stores')}</li>`;
  return html`<fieldset><legend>${t('members.role')}</legend>
<p><label><input type="radio" name="role" value="viewer" ${current.kind !== 'store-owner' ? html`checked` : null}> ${t('members.role.viewer')}</label></p>
<p><label><input type="radio" name="role" value="store-owner" ${current.kind === 'store-owner' ? html`checked` : null}> ${t('members.role.store-owner')}</label></p>
<ul class="plain" aria-label="${t('members.stores')}">${boxes}</ul>
</fieldset>`;
}

/** The list and the invitation form (shown to every member: the owner-only check is the server's, with its message). */
export function membersPage(request: DashboardRequest, members: MemberDocument[], stores: StoreDocument[]): Html {
  const { t } = request;
  const owner = request.signedIn!.member.role.kind === 'organization-owner';
  const rows = members.map((member) => {
    const signedInAt = lastSignIn(member);
    const email = owner && member._id !== request.signedIn!.member._id ? html`<a href="${dashboardPath(`/members/${member._id}`)}" aria-label="${t('members.manage', { email: member.email })}">${member.email}</a>` : html`${member.email}`;
    return html`<tr><td>${email}</td><td>${roleName(request, member.role)}</td><td>${storesNamed(member.role, stores)}</td><td>${member.passkey_ids.length}</td><td>${signedInAt ? time(request, signedInAt) : t('members.never')}</td></tr>
`;
  });
  return layout(
    request,
    t('members.title'),
    html`<p>${t('members.intro')}</p>
<table><thead><tr><th scope="col">${t('members.email')}</th><th scope="col">${t('members.role')}</th><th scope="col">${t('members.stores')}</th><th scope="col">${t('members.passkeys')}</th><th scope="col">${t('members.last-sign-in')}</th></tr></thead>
<tbody>${rows}</tbody></table>
<h2>${t('members.invite.title')}</h2>
<form method="post" action="${dashboardPath('/members/invitations')}">
${csrfField(request)}
<p><label for="invite-email">${t('members.invite.email')}</label> <input id="invite-email" type="email" name="email" required autocomplete="off"></p>
${roleFields(request, stores)}
<p><button type="submit">${t('members.invite.submit')}</button></p>
</form>`,
  );
}

/** The link, once: only its hash is kept. */
export function invitationSentPage(request: DashboardRequest, email: string, link: string, expiresAt: string, mailed: boolean): Html {
  const { t } = request;
  return layout(
    request,
    t('members.invited.title'),
    html`<p>${t('members.invited.intro', { email })}</p>
${mailed ? null : html`<p class="error" role="alert">${t('members.invited.not-mailed')}</p>`}
<p>${t('members.invited.expires')} ${time(request, expiresAt)}</p>
<p><code id="invitation-link">${link}</code></p>
<p><button type="button" class="secondary" data-copy="invitation-link" data-copied="${t('copy.done')}" data-needs-script hidden>${t('members.invited.copy')}</button></p>
<p><a href="${dashboardPath('/members')}">${t('members.back')}</a></p>`,
  );
}

/** One member, for the owner: change the role, remove, hand the organization over. */
export function memberPage(request: DashboardRequest, member: MemberDocument, stores: StoreDocument[]): Html {
  const { t } = request;
  const action = (what: string) => dashboardPath(`/members/${member._id}/${what}`);
  const changeable = member.role.kind !== 'organization-owner';
  // A partner acting in a child changes its members but never hands the child over: its own owner does.
  const handable = changeable && !request.signedIn!.partner;
  return layout(
    request,
    t('members.member.title', { email: member.email }),
    html`<p>${t('members.role')}: ${roleName(request, member.role)}</p>
${changeable
  ? html`<form method="post" action="${action('role')}">${csrfField(request)}${roleFields(request, stores, member.role)}<p><button type="submit">${t('members.change-role.submit')}</button></p></form>
<h2>${t('members.remove.submit')}</h2>
<form method="post" action="${action('remove')}">${csrfField(request)}<p>${t('members.remove.intro')}</p><p><button type="submit" class="secondary">${t('members.remove.submit')}</button></p></form>`
  : null}
${handable
  ? html`<h2>${t('members.hand-over.submit')}</h2>
<form method="post" action="${action('hand-over')}">${csrfField(request)}<p>${t('members.hand-over.intro')}</p><p><button type="submit" class="secondary">${t('members.hand-over.submit')}</button></p></form>`
  : null}
<p><a href="${dashboardPath('/members')}">${t('members.back')}</a></p>`,
  );
}
