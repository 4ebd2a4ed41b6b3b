import { COMMANDS, type InventoryCommandEnvelope, type RuleDocument, type toResource } from '@pss/contracts';
import { findRule, listRules, type RuleFilter } from '@pss/dashboard-reads';
import { allows, REQUIRES_MEMBER, requiresStoreOwner, type Role } from '../access/roles';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import type { CommandFormState } from '../pages/command-form';
import { errorPage } from '../pages/layout';
import { rulePath, ruleListPage, rulePage, type RuleListView } from '../pages/rules';
import { formRefusal } from '../policies/policy-form';
import { DEACTIVATION, ruleChanges, ruleCreation, RULE_TYPES } from '../policies/rule-form';
import { storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';

/** The list's filter from the query, GET /rules' parameters; a value the selects never offer is left out. */
const filterOf = (query: Record<string, string>): RuleFilter => ({
  ...(query.store_id ? { store_id: query.store_id } : {}),
  ...((RULE_TYPES as readonly string[]).includes(query.type) ? { type: query.type as RuleFilter['type'] } : {}),
  ...(query.active === 'true' || query.active === 'false' ? { active: query.active === 'true' } : {}),
});

const rowValues = (rule: RuleDocument): Record<string, string> => ({ label: rule.label, active: rule.active ? 'on' : '' });

/**
 * Block and allow rules (issue 32): every member reads them; a rule belongs to one store, so that store's owner or
 * the organization's creates, changes and deactivates it, through inventory's rule commands with the person as actor.
 */
export function rulesRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const roleOf = (request: DashboardRequest): Role => request.signedIn!.member.role;
  const send = (request: DashboardRequest, pattern: string, envelope: InventoryCommandEnvelope): Promise<ReturnType<typeof toResource<RuleDocument>>> =>
    bus.request(pattern, envelope, { actor: actorOf(request.signedIn!.member) });
  const forbidden = (request: DashboardRequest): DashboardAnswer => errorPage(request, 403, request.t('error.forbidden'));

  async function listView(request: DashboardRequest, form: CommandFormState): Promise<{ view: RuleListView; status?: number }> {
    const filter = filterOf(request.query);
    const cursor = request.query.cursor || undefined;
    const stores = await storesOf(readStore, orgOf(request));
    const ownStores = stores.filter((store) => store.status === 'active' && allows(roleOf(request), requiresStoreOwner(store._id)));
    const view: RuleListView = { rules: [], stores, filter, nextCursor: null, paged: cursor !== undefined, ownStores, form };
    try {
      const page = await listRules(readStore, orgOf(request), filter, cursor);
      return { view: { ...view, rules: page.items, nextCursor: page.next_cursor } };
    } catch (error) {
      if (!isCursorRefusal(error)) throw error;
      return { view: { ...view, staleCursor: true }, status: 400 };
    }
  }

  /** A handler on the route's rule: 404 unless it is one of the organization's; 403 for a change by someone not its store's owner. */
  const onRule =
    (changing: boolean, act: (request: DashboardRequest, rule: RuleDocument, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute['handle'] =>
    async (request, session) => {
      const rule = await findRule(readStore, orgOf(request), request.params.id);
      if (!rule) return errorPage(request, 404, request.t('rules.not-found'));
      if (changing && !allows(roleOf(request), requiresStoreOwner(rule.store_id))) return forbidden(request);
      return act(request, rule, session);
    };
  const rulePageOf = async (request: DashboardRequest, rule: RuleDocument, form: CommandFormState) =>
    rulePage(request, { rule, stores: await storesOf(readStore, orgOf(request)), manages: allows(roleOf(request), requiresStoreOwner(rule.store_id)), form });
  const change = (request: DashboardRequest, rule: RuleDocument, session: SessionControl, input: object) =>
    send(request, COMMANDS.ruleUpdate, { orgId: orgOf(request), id: rule._id, input }).then(
      (changed) => {
        session.flash(changed.active ? 'rules.updated' : 'rules.deactivated', { label: changed.label });
        return { redirect: rulePath(rule._id) };
      },
      async (error: unknown) => {
        const { state: form, status } = formRefusal(request.t, error, { ...rowValues(rule), ...request.form });
        return { status, page: await rulePageOf(request, rule, form) };
      },
    );

  return [
    {
      method: 'GET',
      path: '/rules',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const { view, status } = await listView(request, { values: {} });
        return { status, page: ruleListPage(request, view) };
      },
    },
    {
      method: 'POST',
      path: '/rules',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const input = ruleCreation(request.form);
        if (!allows(roleOf(request), requiresStoreOwner(input.store_id))) return forbidden(request);
        try {
          const rule = await send(request, COMMANDS.ruleCreate, { orgId: orgOf(request), input });
          session.flash('rules.created', { label: rule.label });
          return { redirect: rulePath(rule.id) };
        } catch (error) {
          const { state: form, status } = formRefusal(request.t, error, request.form);
          const { view } = await listView(request, form);
          return { status, page: ruleListPage(request, view) };
        }
      },
    },
    {
      method: 'GET',
      path: '/rules/:id',
      access: REQUIRES_MEMBER,
      handle: onRule(false, async (request, rule) => ({ page: await rulePageOf(request, rule, { values: rowValues(rule) }) })),
    },
    {
      method: 'POST',
      path: '/rules/:id',
      access: REQUIRES_MEMBER,
      handle: onRule(true, (request, rule, session) => change(request, rule, session, ruleChanges(request.form))),
    },
    {
      method: 'POST',
      path: '/rules/:id/deactivate',
      access: REQUIRES_MEMBER,
      handle: onRule(true, (request, rule, session) => change(request, rule, session, DEACTIVATION)),
    },
  ];
}
