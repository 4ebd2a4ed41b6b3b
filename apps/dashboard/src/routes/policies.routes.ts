import { COMMANDS, type InventoryCommandEnvelope, type PolicyApplication, type PolicyDocument, type PolicySimulation, type StoreDocument, type toResource } from '@pss/contracts';
import { findPolicy, listPolicies } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { ownStore } from '@pss/store-reads';
import { allows, REQUIRES_MEMBER, requiresStoreOwner, type Role } from '../access/roles';
import { ORGANIZATION_WIDE } from '../email-channels/email-channel-form';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import type { CommandFormState } from '../pages/command-form';
import type { StoreChoice } from '../pages/email-channels';
import { errorPage } from '../pages/layout';
import { newPolicyPage, policyListPage, policyPage, policyPath, simulationPage, type PolicyView } from '../pages/policies';
import { formRefusal, policyChanges, policyCreation, policyFormOf, policyRequirement } from '../policies/policy-form';
import { creatableScopes, storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';

/** A read model's document as a command answers it (`toResource`). */
type Resource<T extends { _id: string }> = ReturnType<typeof toResource<T>>;
type Stores = Array<StoreChoice & Pick<StoreDocument, 'status'>>;

/** A run refused for its store (none chosen, another organization's): the command's words, else the error goes on. */
function runRefusal(error: unknown): { status: number; message: string } {
  if (!(error instanceof DomainError) || !['validation_error', 'not_found'].includes(error.code)) throw error;
  return { status: error.code === 'not_found' ? 404 : 400, message: error.details?.[0]?.message ?? error.message };
}

/**
 * Policies (issue 32): every member reads them and simulates one on a store (policies:read); the organization
 * owner changes any, a store owner their stores' own (policyRequirement); Apply decides on the store it runs on, so
 * it needs that store's owner. Each write is inventory's own command with the person as actor, as the API sends it.
 */
export function policiesRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const roleOf = (request: DashboardRequest): Role => request.signedIn!.member.role;
  const send = <Reply>(request: DashboardRequest, pattern: string, envelope: InventoryCommandEnvelope): Promise<Reply> =>
    bus.request<Reply>(pattern, envelope, { actor: actorOf(request.signedIn!.member) });
  const forbidden = (request: DashboardRequest): DashboardAnswer => errorPage(request, 403, request.t('error.forbidden'));

  /** A handler on the route's policy: 404 unless it is one of the organization's. */
  const onPolicy =
    (act: (request: DashboardRequest, policy: PolicyDocument, stores: Stores, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute['handle'] =>
    async (request, session) => {
      const policy = await findPolicy(readStore, orgOf(request), request.params.id);
      if (!policy) return errorPage(request, 404, request.t('policies.not-found'));
      return act(request, policy, await storesOf(readStore, orgOf(request)), session);
    };
  const view = (request: DashboardRequest, policy: PolicyDocument, stores: Stores, state: CommandFormState = { values: policyFormOf(policy) }): PolicyView => ({
    policy,
    stores,
    manages: allows(roleOf(request), policyRequirement(policy.store_id)),
    state,
  });

  return [
    {
      method: 'GET',
      path: '/policies',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const storeId = request.query.store_id || '';
        const cursor = request.query.cursor || undefined;
        const stores = await storesOf(readStore, orgOf(request));
        const list = { policies: [], stores, storeId, nextCursor: null, paged: cursor !== undefined, canCreate: creatableScopes(roleOf(request), stores).length > 0 };
        try {
          if (storeId) await ownStore(readStore, orgOf(request), storeId);
          const page = await listPolicies(readStore, orgOf(request), storeId || undefined, cursor);
          return { page: policyListPage(request, { ...list, policies: page.items, nextCursor: page.next_cursor }) };
        } catch (error) {
          if (error instanceof DomainError && error.code === 'not_found') return errorPage(request, 404, request.t('error.not-found'));
          if (!isCursorRefusal(error)) throw error;
          return { status: 400, page: policyListPage(request, { ...list, staleCursor: true }) };
        }
      },
    },
    {
      method: 'GET',
      path: '/policies/new',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const stores = await storesOf(readStore, orgOf(request));
        const scopes = creatableScopes(roleOf(request), stores);
        if (!scopes.length) return forbidden(request);
        // A new policy recommends until someone makes it automatic, as the command's own defaults say.
        const values = { mode: 'recommend', action: 'needs_review', priority: '100', active: 'on', store_id: scopes[0] ? scopes[0]._id : ORGANIZATION_WIDE };
        return { page: newPolicyPage(request, { values }, scopes, stores) };
      },
    },
    {
      method: 'POST',
      path: '/policies',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const input = policyCreation(request.form);
        if (!allows(roleOf(request), policyRequirement(input.store_id ?? null))) return forbidden(request);
        try {
          const policy = await send<Resource<PolicyDocument>>(request, COMMANDS.policyCreate, { orgId: orgOf(request), input });
          session.flash('policies.created', { name: policy.name });
          return { redirect: policyPath(policy.id) };
        } catch (error) {
          const { state, status } = formRefusal(request.t, error, request.form);
          const stores = await storesOf(readStore, orgOf(request));
          return { status, page: newPolicyPage(request, state, creatableScopes(roleOf(request), stores), stores) };
        }
      },
    },
    {
      method: 'GET',
      path: '/policies/:id',
      access: REQUIRES_MEMBER,
      handle: onPolicy(async (request, policy, stores) => ({ page: policyPage(request, view(request, policy, stores)) })),
    },
    {
      method: 'POST',
      path: '/policies/:id',
      access: REQUIRES_MEMBER,
      handle: onPolicy(async (request, policy, stores, session) => {
        if (!allows(roleOf(request), policyRequirement(policy.store_id))) return forbidden(request);
        try {
          const changed = await send<Resource<PolicyDocument>>(request, COMMANDS.policyUpdate, { orgId: orgOf(request), id: policy._id, input: policyChanges(request.form) });
          session.flash('policies.updated', { name: changed.name, version: changed.version });
          return { redirect: policyPath(policy._id) };
        } catch (error) {
          const { state, status } = formRefusal(request.t, error, request.form);
          return { status, page: policyPage(request, view(request, policy, stores, state)) };
        }
      }),
    },
    {
      method: 'POST',
      path: '/policies/:id/simulate',
      access: REQUIRES_MEMBER,
      handle: onPolicy(async (request, policy, stores) => {
        const storeId = request.form.store_id ?? '';
        try {
          const result = await send<PolicySimulation>(request, COMMANDS.policySimulate, { orgId: orgOf(request), id: policy._id, input: { store_id: storeId || undefined } });
          const store = stores.find((candidate) => candidate._id === result.store_id);
          return { page: simulationPage(request, policy, store, result, allows(roleOf(request), requiresStoreOwner(result.store_id))) };
        } catch (error) {
          const { status, message } = runRefusal(error);
          return { status, page: policyPage(request, { ...view(request, policy, stores), runStore: storeId, runRefusal: message }) };
        }
      }),
    },
    {
      method: 'POST',
      path: '/policies/:id/apply',
      access: REQUIRES_MEMBER,
      handle: onPolicy(async (request, policy, _stores, session) => {
        const storeId = policy.store_id ?? request.form.store_id ?? '';
        if (!allows(roleOf(request), requiresStoreOwner(storeId))) return forbidden(request);
        let result: PolicyApplication;
        try {
          result = await send<PolicyApplication>(request, COMMANDS.policyApply, { orgId: orgOf(request), id: policy._id, input: { store_id: storeId } });
        } catch (error) {
          // Only an edited form gets here (the simulation's Apply names the store it ran on).
          const { status, message } = runRefusal(error);
          return errorPage(request, status, message);
        }
        session.flash('policies.applied', { authorized: result.authorized, blocked: result.blocked, review: result.needs_review, unchanged: result.unchanged });
        return { redirect: policyPath(policy._id) };
      }),
    },
  ];
}
