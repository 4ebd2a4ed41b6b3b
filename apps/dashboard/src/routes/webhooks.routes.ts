import { COMMANDS, type ChannelCommandEnvelope, type ChannelResource, type ChannelTestResult, type CreatedChannel } from '@pss/contracts';
import { channelDeliveries, lastTestDelivery, webhookOf, webhooksPage } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { SecretBox, webhookSecretInTransit } from '@pss/secrets';
import { allows, REQUIRES_MEMBER, type Role } from '../access/roles';
import { CHANNEL_REFUSALS, channelRequirement } from '../email-channels/email-channel-form';
import { isCursorRefusal } from '../http/cursor-refusal';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import { NO_STORE } from '../http/security-headers';
import { refusalText } from '../i18n/refusals';
import { deliveriesPage } from '../pages/deliveries';
import { errorPage } from '../pages/layout';
import { createdWebhookPage, NEW_WEBHOOK, newWebhookPage, webhookListPage, webhookPage, webhookPath, WEBHOOKS, type WebhookFormState } from '../pages/webhooks';
import { knownWebhookError } from '../webhooks/attempt-errors';
import { blankWebhookForm, changesOf, creationInput, refusedFields, webhookFormOf, webhookFormValues, type WebhookFormValues } from '../webhooks/webhook-form';
import { creatableScopes, storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';
import { requireRecentPasskey } from './step-up.routes';

/** Pages of the webhook list: the API's default page size. */
const WEBHOOKS_PAGE = 20;

/** A form the command refused: the fields in the person's language (400), or its reason in the person's language (409, 404). */
function refusal(request: DashboardRequest, error: unknown, values: WebhookFormValues): { state: WebhookFormState; status: number } {
  const refused = refusedFields(request.t, error);
  if (refused) return { state: { values, refused }, status: 400 };
  if (error instanceof DomainError && error.code !== 'service_unavailable') {
    return { state: { values, reason: refusalText(request.t, error, CHANNEL_REFUSALS) }, status: error.code === 'not_found' ? 404 : 409 };
  }
  throw error;
}

/**
 * Webhook channels (issue 32): what GET/POST/PATCH/DELETE /webhooks and POST /webhooks/{id}/test do, through the
 * same notifier commands with the person as actor. Every member reads them; the organization owner manages every
 * webhook, a store owner those of their stores (channelRequirement), checked here on each action. The signing
 * secret crosses the bus sealed (as for the gateway) and is opened only to be written into the creation's answer.
 */
export function webhooksRoutes({ bus, readStore }: RouteDeps, { secrets }: { secrets: SecretBox }): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const roleOf = (request: DashboardRequest): Role => request.signedIn!.member.role;
  const send = <Reply>(request: DashboardRequest, pattern: string, command: ChannelCommandEnvelope): Promise<Reply> =>
    bus.request<Reply>(pattern, command, { actor: actorOf(request.signedIn!.member) });
  const forbidden = (request: DashboardRequest): DashboardAnswer => errorPage(request, 403, request.t('error.forbidden'));
  const storesOfRequest = (request: DashboardRequest) => storesOf(readStore, orgOf(request));

  /** A handler on the route's webhook: 404 unless it is one of the organization's, 403 unless `managing` is allowed. */
  const onWebhook =
    (managing: boolean, act: (request: DashboardRequest, found: { webhook: ChannelResource; manages: boolean }, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute['handle'] =>
    async (request, session) => {
      const webhook = await webhookOf(readStore, orgOf(request), request.params.id);
      if (!webhook) return errorPage(request, 404, request.t('webhooks.not-found'));
      const manages = allows(roleOf(request), channelRequirement(webhook.store_id));
      if (managing && !manages) return forbidden(request);
      return act(request, { webhook, manages }, session);
    };

  const showWebhook = async (request: DashboardRequest, webhook: ChannelResource, state: WebhookFormState, manages: boolean, status = 200): Promise<DashboardAnswer> => {
    const [stores, test] = await Promise.all([storesOfRequest(request), lastTestDelivery(readStore, orgOf(request), webhook.id)]);
    return { status, page: webhookPage(request, webhook, state, stores, manages, test) };
  };

  return [
    {
      method: 'GET',
      path: '/webhooks',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const orgId = orgOf(request);
        const cursor = request.query.cursor || undefined;
        const found = await webhooksPage(readStore, orgId, { cursor, limit: WEBHOOKS_PAGE }).catch((error: unknown) => {
          if (isCursorRefusal(error)) return undefined;
          throw error;
        });
        // A cursor this list never gave (an edited address): the first page, saying so.
        const { webhooks, nextCursor } = found ?? (await webhooksPage(readStore, orgId, { limit: WEBHOOKS_PAGE }));
        const stores = await storesOfRequest(request);
        const canCreate = creatableScopes(roleOf(request), stores).length > 0;
        return { status: found ? 200 : 400, page: webhookListPage(request, { webhooks, nextCursor, staleCursor: !found, canCreate }, stores) };
      },
    },
    {
      method: 'GET',
      path: '/webhooks/new',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const stores = await storesOfRequest(request);
        const scopes = creatableScopes(roleOf(request), stores);
        if (!scopes.length) return forbidden(request);
        const values = blankWebhookForm();
        // A store owner has no organization-wide webhook to choose: their first store is the default.
        if (scopes[0]) values.store_id = scopes[0]._id;
        return requireRecentPasskey(request, NEW_WEBHOOK) ?? { page: newWebhookPage(request, { values }, scopes, stores) };
      },
    },
    {
      method: 'POST',
      path: '/webhooks',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const values = webhookFormValues(request.form);
        const input = creationInput(values);
        if (!allows(roleOf(request), channelRequirement(input.store_id ?? null))) return forbidden(request);
        const steppedUp = requireRecentPasskey(request, NEW_WEBHOOK);
        if (steppedUp) return steppedUp;
        try {
          const { secret, secret_generated: _generated, ...webhook } = await send<CreatedChannel>(request, COMMANDS.channelCreate, { orgId: orgOf(request), input });
          // Shown on this answer only, never cached, never kept: no session, flash or log holds it.
          return { page: createdWebhookPage(request, webhook, secrets.open(secret, webhookSecretInTransit(orgOf(request)))), headers: NO_STORE };
        } catch (error) {
          const { state, status } = refusal(request, error, values);
          const stores = await storesOfRequest(request);
          return { status, page: newWebhookPage(request, state, creatableScopes(roleOf(request), stores), stores) };
        }
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:id',
      access: REQUIRES_MEMBER,
      handle: onWebhook(false, (request, { webhook, manages }) => showWebhook(request, webhook, { values: webhookFormOf(webhook) }, manages)),
    },
    {
      method: 'POST',
      path: '/webhooks/:id',
      access: REQUIRES_MEMBER,
      handle: onWebhook(true, async (request, { webhook }, session) => {
        const values = { ...webhookFormValues(request.form), store_id: webhookFormOf(webhook).store_id, format: webhookFormOf(webhook).format };
        try {
          const changed = await send<ChannelResource>(request, COMMANDS.channelUpdate, { orgId: orgOf(request), id: webhook.id, input: changesOf(values) });
          session.flash('webhooks.updated', { name: changed.name });
          return { redirect: webhookPath(webhook.id) };
        } catch (error) {
          const { state, status } = refusal(request, error, values);
          return showWebhook(request, webhook, state, true, status);
        }
      }),
    },
    {
      method: 'POST',
      path: '/webhooks/:id/test',
      access: REQUIRES_MEMBER,
      handle: onWebhook(true, async (request, { webhook }, session) => {
        const result = await send<ChannelTestResult>(request, COMMANDS.channelTest, { orgId: orgOf(request), id: webhook.id, input: {} });
        // The receiver's failure (a status, a timeout, a refused address) in the person's language, the notifier's word when unknown.
        if (result.delivered) session.flash('webhooks.test.delivered');
        else session.flash('webhooks.test.failed', { error: knownWebhookError(request.t, result.error ?? '') ?? result.error ?? '' });
        // The webhook's page shows what the test answered: its status code and duration are its delivery's.
        return { redirect: `${webhookPath(webhook.id)}#test-title` };
      }),
    },
    {
      method: 'POST',
      path: '/webhooks/:id/delete',
      access: REQUIRES_MEMBER,
      handle: onWebhook(true, async (request, { webhook }, session) => {
        await send(request, COMMANDS.channelDelete, { orgId: orgOf(request), id: webhook.id, input: {} });
        session.flash('webhooks.deleted', { name: webhook.name });
        return { redirect: WEBHOOKS };
      }),
    },
    {
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      access: REQUIRES_MEMBER,
      handle: onWebhook(false, async (request, { webhook }) => {
        const [deliveries, stores] = await Promise.all([channelDeliveries(readStore, orgOf(request), webhook.id, request.now), storesOfRequest(request)]);
        return { page: deliveriesPage(request, webhook, deliveries, stores.find((store) => store._id === webhook.store_id)?.timezone) };
      }),
    },
  ];
}
