import { STORES, type StoreDocument } from '@pss/contracts';
import { invitationLink } from '@pss/contracts/dashboard-invitation';
import { DomainError } from '@pss/kernel';
import type { MailSender } from '@pss/mail';
import type { MemberDocument } from '../access/members.read-model';
import { REQUIRES_MEMBER } from '../access/roles';
import { dashboardPath, type DashboardAnswer, type DashboardRequest, type DashboardRoute, type SessionControl } from '../http/dashboard-route';
import { NO_STORE } from '../http/security-headers';
import type { SessionStore } from '../http/session-store';
import { memberInvitationMail } from '../members/member-invitation-mail';
import { memberRefusal } from '../members/member-refusals';
import { parseInvitation, parseRole, type MemberFormError } from '../members/member-form';
import { invitationSentPage, memberPage, membersPage } from '../pages/members';
import { errorPage } from '../pages/layout';
import { organizationOwnerOnly } from './owner-only';
import type { RouteDeps } from './route-deps';
import { requireRecentPasskey } from './step-up.routes';

const MEMBERS = dashboardPath('/members');
const memberPath = (id: string) => dashboardPath(`/members/${encodeURIComponent(id)}`);

/** What the members pages need beyond the routes' common deps: the mail port, the sessions a removal ends, the link's base. */
export interface MembersDeps {
  mail: MailSender;
  sessions: SessionStore;
  publicUrl: string;
}

/**
 * Members: everyone signed in sees the list and the invitation form; only the organization owner invites, changes
 * a role, removes or hands the organization over (checked here, with the message the page shows). Every change
 * asks for a recent passkey.
 */
export function membersRoutes({ access, readStore }: RouteDeps, { mail, sessions, publicUrl }: MembersDeps): DashboardRoute[] {
  const storesOf = (orgId: string) => readStore.collection<StoreDocument>(STORES).find({ org_id: orgId }, { sort: { domain: 1 } });
  const ownerOnly = (request: DashboardRequest) => organizationOwnerOnly(request, 'members.owner-only');
  const refused = (request: DashboardRequest, error: MemberFormError) => errorPage(request, 400, request.t(error));
  /** The organization's member the path names; another organization's id finds nothing. */
  const memberNamed = async (request: DashboardRequest): Promise<MemberDocument | undefined> =>
    (await access.membersOf(request.signedIn!.organization.id)).find((member) => member._id === request.params.id);
  /** The decider's refusals, as the page says them; anything else is a failure, not a refusal. */
  const domainRefusal = (request: DashboardRequest, error: unknown): DashboardAnswer => {
    if (!(error instanceof DomainError)) throw error;
    const { status, message } = memberRefusal(request.t, error);
    return errorPage(request, status, message);
  };
  const notMember = (request: DashboardRequest) => errorPage(request, 404, request.t('members.error.not-member'));
  /** The owner's change to one member: owner only, a recent passkey (back to the member's page), a member of this organization. */
  const memberChange = (path: string, change: (request: DashboardRequest, target: MemberDocument, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute => ({
    method: 'POST',
    path,
    access: REQUIRES_MEMBER,
    async handle(request, session) {
      const denied = ownerOnly(request) ?? requireRecentPasskey(request, memberPath(request.params.id));
      if (denied) return denied;
      const target = await memberNamed(request);
      if (!target) return notMember(request);
      try {
        return await change(request, target, session);
      } catch (error) {
        return domainRefusal(request, error);
      }
    },
  });

  return [
    {
      method: 'GET',
      path: '/members',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const orgId = request.signedIn!.organization.id;
        return { page: membersPage(request, await access.membersOf(orgId), await storesOf(orgId)) };
      },
    },
    {
      method: 'POST',
      path: '/members/invitations',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const denied = ownerOnly(request) ?? requireRecentPasskey(request, MEMBERS);
        if (denied) return denied;
        const { member, organization } = request.signedIn!;
        const parsed = parseInvitation(request.form, (await storesOf(organization.id)).map((store) => store._id));
        if (!parsed.ok) return refused(request, parsed.error);
        let invitation;
        try {
          invitation = await access.invite(organization.id, member, parsed.value.email, parsed.value.role, request.now);
        } catch (error) {
          return domainRefusal(request, error);
        }
        const link = invitationLink(publicUrl, invitation.token);
        // The page shows the link once too: a mail that does not arrive does not fail the invitation.
        const mailed = await mail.send(memberInvitationMail(parsed.value.email, organization.name, member.email, link)).then(() => true, () => false);
        return { page: invitationSentPage(request, parsed.value.email, link, invitation.expiresAt, mailed), headers: NO_STORE };
      },
    },
    {
      method: 'GET',
      path: '/members/:id',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const denied = ownerOnly(request);
        if (denied) return denied;
        const target = await memberNamed(request);
        if (!target) return notMember(request);
        return { page: memberPage(request, target, await storesOf(target.org_id)) };
      },
    },
    memberChange('/members/:id/role', async (request, target, session) => {
      const role = parseRole(request.form, (await storesOf(target.org_id)).map((store) => store._id));
      if (!role.ok) return refused(request, role.error);
      await access.changeRole(target.org_id, request.signedIn!.member, target._id, role.value, request.now);
      session.flash('members.role-changed', { email: target.email });
      return { redirect: MEMBERS };
    }),
    memberChange('/members/:id/remove', async (request, target, session) => {
      await access.remove(target.org_id, request.signedIn!.member, target._id, request.now);
      await sessions.endMember(target._id);
      session.flash('members.removed', { email: target.email });
      return { redirect: MEMBERS };
    }),
    memberChange('/members/:id/hand-over', async (request, target, session) => {
      if (request.signedIn!.partner) return errorPage(request, 403, request.t('partners.hand-over-own'));
      await access.handOver(request.signedIn!.member, target._id, request.now);
      session.flash('members.handed-over', { email: target.email });
      return { redirect: MEMBERS };
    }),
  ];
}
