import { COMMANDS, SCRIPT_DECISION_REFUSALS, type ScriptDecisionEnvelope } from '@pss/contracts';
import { reviewInbox, scriptsByIds, templatedPolicies } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { allows, REQUIRES_MEMBER, requiresStoreOwner } from '../access/roles';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardRequest, DashboardRoute } from '../http/dashboard-route';
import type { Translate } from '../i18n/catalogue';
import { fieldRefusalText } from '../i18n/refusals';
import { inboxPath, reviewPage, type ReviewFailure, type ReviewView } from '../pages/review';
import { parseReviewForm, type ReviewRequest } from '../review/review-form';
import { recommendingPolicies, reviewGroups, startingJustification } from '../review/review-groups';
import { storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';

const COMMAND_OF = { authorize: COMMANDS.scriptAuthorize, block: COMMANDS.scriptBlock } as const;

/** A command's refusal of one script: a field's known refusal in the person's language, else the service's words (the field's when it names one). */
const refusalOf = (t: Translate, error: DomainError): string => {
  const detail = error.details?.[0];
  return detail ? fieldRefusalText(t, detail, SCRIPT_DECISION_REFUSALS) : error.message;
};

/**
 * The review inbox (issue 32): what needs a decision, grouped by host and vendor, decided one or many at a time.
 * Every member reads it; each decision is inventory's command for one script, sent as the person (the audit log
 * names them) after the role check for that script's store.
 */
export function reviewRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  async function inbox(request: DashboardRequest, outcome?: ReviewView['outcome']): Promise<{ page: ReturnType<typeof reviewPage>; status?: number }> {
    const orgId = request.signedIn!.organization.id;
    const storeId = request.query.store ?? '';
    const cursor = request.query.cursor || undefined;
    const stores = await storesOf(readStore, orgId);
    const role = request.signedIn!.member.role;
    const view: ReviewView = { storeId, stores, groups: [], decides: (script) => allows(role, requiresStoreOwner(script.store_id)), paged: cursor !== undefined, nextCursor: null, outcome };
    let page;
    try {
      page = await reviewInbox(readStore, orgId, storeId || undefined, request.now, { cursor });
    } catch (error) {
      if (!isCursorRefusal(error)) throw error;
      return { status: 400, page: reviewPage(request, { ...view, outcome: { error: 'review.error.cursor' } }) };
    }
    const templated = await templatedPolicies(readStore, orgId, recommendingPolicies(page.scripts));
    const groups = reviewGroups(page.scripts).map((group) => ({ ...group, justification: startingJustification(group, templated) }));
    return { page: reviewPage(request, { ...view, groups, nextCursor: page.next_cursor }) };
  }

  /** Each script's decision in turn; what the service or the role refused is kept per script. */
  async function decide(request: DashboardRequest, { decision, scriptIds, justification }: ReviewRequest): Promise<{ done: number; failures: ReviewFailure[]; forbidden: number }> {
    const { member, organization } = request.signedIn!;
    const scripts = await scriptsByIds(readStore, organization.id, scriptIds);
    const result = { done: 0, failures: [] as ReviewFailure[], forbidden: 0 };
    for (const id of scriptIds) {
      const script = scripts.get(id);
      if (!script) {
        result.failures.push({ src: id, message: request.t('error.not-found') });
      } else if (!allows(member.role, requiresStoreOwner(script.store_id))) {
        result.forbidden += 1;
        result.failures.push({ src: script.src, message: request.t('error.forbidden') });
      } else {
        // A person deciding by hand: `manual` in the script's authorization_method, where the API's clients get `api`.
        const command: ScriptDecisionEnvelope = { orgId: organization.id, id, input: { justification }, method: 'manual' };
        try {
          await bus.request(COMMAND_OF[decision], command, { actor: actorOf(member) });
          result.done += 1;
        } catch (error) {
          if (!(error instanceof DomainError) || error.code === 'service_unavailable') throw error;
          result.failures.push({ src: script.src, message: refusalOf(request.t, error) });
        }
      }
    }
    return result;
  }

  return [
    {
      method: 'GET',
      path: '/review',
      access: REQUIRES_MEMBER,
      handle: (request) => inbox(request),
    },
    {
      method: 'POST',
      path: '/review',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const parsed = parseReviewForm(request.form);
        if ('error' in parsed) return { ...(await inbox(request, { error: parsed.error.key })), status: 400 };
        const { done, failures, forbidden } = await decide(request, parsed.request);
        if (!failures.length) {
          session.flash(parsed.request.decision === 'authorize' ? 'review.authorized' : 'review.blocked', { count: done });
          return { redirect: inboxPath(request.query.store ?? '') };
        }
        // Some decided: the page is what it is now. None: refused, for the role (403) or by the service (400).
        const status = done ? 200 : forbidden === failures.length ? 403 : 400;
        return { ...(await inbox(request, { done, failures })), status };
      },
    },
  ];
}
