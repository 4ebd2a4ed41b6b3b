import { COMMANDS, installSnippets, type StoreCommandEnvelope, type StoreDocument } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { allows, REQUIRES_MEMBER, REQUIRES_ORGANIZATION_OWNER, requiresStoreOwner } from '../access/roles';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import { showTime } from '../i18n/dates';
import { errorPage } from '../pages/layout';
import { installPage, newStorePage, settingsPage, storePath, type FormState } from '../pages/stores';
import { installCheckView } from '../stores/install-check-view';
import { firstScripts, installEvidence, rotatedKeysValidUntil, storeOf } from '../stores/store-queries';
import { BLANK_NEW_STORE, createStoreInput, fieldRefusals, newStoreValues, sdkSettingsInput, sdkSettingsOf, sdkSettingsValues, type SdkSettingsValues } from '../stores/store-form';
import { actorOf, type RouteDeps } from './route-deps';

/** A refused command as the form shows it: its refusals per field in the person's language (400), or its reason (409, 403 for the plan's limit). */
function refusedForm<Values>(request: DashboardRequest, error: unknown, values: Values): { state: FormState<Values>; status: number } {
  const refused = fieldRefusals(request.t, error);
  if (refused) return { state: { values, refused }, status: 400 };
  if (error instanceof DomainError && ['conflict', 'plan_limit', 'not_found'].includes(error.code)) {
    return { state: { values, reason: error.message }, status: { conflict: 409, plan_limit: 403, not_found: 404 }[error.code as 'conflict']! };
  }
  throw error;
}

/**
 * Stores (issue 32): the organization owner creates one (POST /stores's command); every member reads its install
 * page and its live check; its settings change by the store owner of that store or the organization owner, each
 * action checked here, since the store comes from the path. Commands name the person as actor.
 */
export function storesRoutes({ bus, readStore }: RouteDeps, { sdkScriptUrl }: { sdkScriptUrl: string }): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const send = <Reply>(request: DashboardRequest, pattern: string, storeId: string | undefined, input: object): Promise<Reply> => {
    const envelope: StoreCommandEnvelope = { orgId: orgOf(request), storeId, input };
    return bus.request<Reply>(pattern, envelope, { actor: actorOf(request.signedIn!.member) });
  };
  const manages = (request: DashboardRequest, store: StoreDocument): boolean => allows(request.signedIn!.member.role, requiresStoreOwner(store._id));

  /** A handler on the path's store: 404 unless it is the acting organization's, 403 when `managing` and not allowed. */
  const onStore =
    (managing: boolean, act: (request: DashboardRequest, store: StoreDocument, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute['handle'] =>
    async (request, session) => {
      const store = await storeOf(readStore, orgOf(request), request.params.id);
      if (!store) return errorPage(request, 404, request.t('stores.not-found'));
      if (managing && !manages(request, store)) return errorPage(request, 403, request.t('error.forbidden'));
      return act(request, store, session);
    };

  const checkView = async (request: DashboardRequest, store: StoreDocument) =>
    installCheckView(request, await installEvidence(readStore, store, sdkScriptUrl, request.now), await firstScripts(readStore, store), {
      timeZone: store.timezone,
      now: request.now,
    });

  const settings = async (request: DashboardRequest, store: StoreDocument, state: FormState<SdkSettingsValues>, status = 200): Promise<DashboardAnswer> => {
    const [latest] = await rotatedKeysValidUntil(readStore, store);
    const oldKeyValidUntil = latest && Date.parse(latest) > request.now.getTime() ? latest : null;
    return { status, page: settingsPage(request, store, state, { manages: manages(request, store), oldKeyValidUntil }) };
  };

  /** What a settings action sends, and what it says once done (`reply` is the command's answer). */
  interface SettingsAction {
    pattern: string;
    input(form: Record<string, string>): object;
    done(request: DashboardRequest, session: SessionControl, store: StoreDocument, reply: never): void;
    /** The SDK form as the refused page shows it: as typed for the SDK form itself, as stored otherwise. */
    typed?(form: Record<string, string>): SdkSettingsValues;
  }

  /** Sends a store command from the settings page; a refusal comes back on it, in the command's words. */
  const change = (action: SettingsAction) => async (request: DashboardRequest, store: StoreDocument, session: SessionControl): Promise<DashboardAnswer> => {
    try {
      action.done(request, session, store, await send<never>(request, action.pattern, store._id, action.input(request.form)));
      return { redirect: storePath(store._id, 'settings') };
    } catch (error) {
      const { state, status } = refusedForm(request, error, action.typed ? action.typed(request.form) : sdkSettingsOf(store));
      return settings(request, store, state, status);
    }
  };

  return [
    {
      method: 'GET',
      path: '/stores/new',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request) {
        return { page: newStorePage(request, { values: BLANK_NEW_STORE }) };
      },
    },
    {
      method: 'POST',
      path: '/stores',
      access: REQUIRES_ORGANIZATION_OWNER,
      async handle(request, session) {
        const values = newStoreValues(request.form);
        try {
          const created = await send<{ id: string; name: string }>(request, COMMANDS.storeCreate, undefined, createStoreInput(values));
          session.flash('stores.created', { name: created.name });
          return { redirect: storePath(created.id, 'install') };
        } catch (error) {
          const { state, status } = refusedForm(request, error, values);
          return { status, page: newStorePage(request, state) };
        }
      },
    },
    {
      method: 'GET',
      path: '/stores/:id/install',
      access: REQUIRES_MEMBER,
      handle: onStore(false, async (request, store) => ({ page: installPage(request, store, installSnippets(sdkScriptUrl, store.sdk_key), await checkView(request, store)) })),
    },
    {
      method: 'GET',
      path: '/stores/:id/install-check.json',
      access: REQUIRES_MEMBER,
      handle: onStore(false, async (request, store) => ({ json: await checkView(request, store) })),
    },
    {
      method: 'GET',
      path: '/stores/:id/settings',
      access: REQUIRES_MEMBER,
      handle: onStore(false, (request, store) => settings(request, store, { values: sdkSettingsOf(store) })),
    },
    {
      method: 'POST',
      path: '/stores/:id/sdk',
      access: REQUIRES_MEMBER,
      handle: onStore(
        true,
        change({
          pattern: COMMANDS.storeUpdate,
          input: (form) => sdkSettingsInput(sdkSettingsValues(form)),
          typed: sdkSettingsValues,
          done: (_request, session) => session.flash('stores.sdk.saved'),
        }),
      ),
    },
    {
      method: 'POST',
      path: '/stores/:id/developer-mode',
      access: REQUIRES_MEMBER,
      handle: onStore(
        true,
        change({
          pattern: COMMANDS.storeUpdate,
          input: (form) => ({ developer_mode: form.developer_mode === 'on' }),
          done: (request, session) => session.flash(request.form.developer_mode === 'on' ? 'stores.developer-mode.turned-on' : 'stores.developer-mode.turned-off'),
        }),
      ),
    },
    {
      method: 'POST',
      path: '/stores/:id/rotate-key',
      access: REQUIRES_MEMBER,
      handle: onStore(
        true,
        change({
          pattern: COMMANDS.storeRotateKey,
          input: () => ({}),
          done: (request, session, store, reply: { previous_key_valid_until: string }) =>
            session.flash('stores.key.rotated', { until: showTime(reply.previous_key_valid_until, request.locale, store.timezone).local }),
        }),
      ),
    },
    {
      method: 'POST',
      path: '/stores/:id/suspend',
      access: REQUIRES_MEMBER,
      handle: onStore(true, async (request, store, session) => {
        if (request.form.confirm !== 'yes') return settings(request, store, { values: sdkSettingsOf(store), refused: { confirm: [request.t('stores.suspend.unconfirmed')] } }, 400);
        return change({ pattern: COMMANDS.storeSuspend, input: () => ({}), done: (_request, control) => control.flash('stores.suspended', { name: store.name }) })(request, store, session);
      }),
    },
  ];
}

