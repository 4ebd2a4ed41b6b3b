import { COMMANDS, type ChannelResource, type ChannelTestResult, type EmailChannelRequest } from '@pss/contracts';
import { channelDeliveries, listEmailChannels } from '@pss/dashboard-reads';
import { DomainError } from '@pss/kernel';
import { allows, REQUIRES_MEMBER, type Role } from '../access/roles';
import { knownDeliveryError } from '../email-channels/delivery-errors';
import { CHANNEL_REFUSALS, changesOf, channelRequirement, creationInput, refusedFields } from '../email-channels/email-channel-form';
import type { DashboardAnswer, DashboardRequest, DashboardRoute, SessionControl } from '../http/dashboard-route';
import { refusalText } from '../i18n/refusals';
import { deliveriesPage } from '../pages/deliveries';
import {
  blankChannelForm,
  channelFormOf,
  channelListPage,
  channelPage,
  channelPath,
  CHANNELS,
  NEW_CHANNEL,
  newChannelPage,
  storeZone,
  type ChannelFormState,
} from '../pages/email-channels';
import { errorPage } from '../pages/layout';
import { creatableScopes, storesOf } from './organization-stores';
import { actorOf, type RouteDeps } from './route-deps';
import { requireRecentPasskey } from './step-up.routes';

/** A form the notifier refused: its fields marked, or its reason shown in the person's language (409: the channel limit, a suspended store). */
function refusal(request: DashboardRequest, error: unknown, form: ChannelFormState['values']): { state: ChannelFormState; status: number } {
  const refused = refusedFields(error);
  if (refused) return { state: { values: form, refused }, status: 400 };
  if (error instanceof DomainError && error.code !== 'service_unavailable') {
    return { state: { values: form, reason: refusalText(request.t, error, CHANNEL_REFUSALS) }, status: error.code === 'not_found' ? 404 : 409 };
  }
  throw error;
}

const formValues = (form: Record<string, string>): ChannelFormState['values'] => ({
  name: form.name ?? '',
  recipients: form.recipients ?? '',
  store_id: form.store_id ?? '',
  min_severity: form.min_severity ?? '',
  active: form.active === 'on',
});

/**
 * E-mail channels and their deliveries (issue 31). Every member sees them; the organization owner manages every
 * channel, a store owner those of their stores (channelRequirement), checked here on each action since the scope
 * comes from the channel. Creating needs a passkey proved in the last 5 minutes, asked before the form is shown.
 */
export function emailChannelsRoutes({ bus, readStore }: RouteDeps): DashboardRoute[] {
  const orgOf = (request: DashboardRequest): string => request.signedIn!.organization.id;
  const roleOf = (request: DashboardRequest): Role => request.signedIn!.member.role;
  const send = <Reply>(request: DashboardRequest, pattern: string, command: EmailChannelRequest<unknown>): Promise<Reply> =>
    bus.request<Reply>(pattern, command, { actor: actorOf(request.signedIn!.member) });
  const notFound = (request: DashboardRequest): DashboardAnswer => errorPage(request, 404, request.t('channels.not-found'));
  const forbidden = (request: DashboardRequest): DashboardAnswer => errorPage(request, 403, request.t('error.forbidden'));

  /** The route's channel when it is this organization's e-mail channel; with whether the person manages it. */
  async function channelOf(request: DashboardRequest): Promise<{ channel: ChannelResource; manages: boolean } | undefined> {
    const channel = (await listEmailChannels(readStore, orgOf(request))).find((candidate) => candidate.id === request.params.id);
    return channel && { channel, manages: allows(roleOf(request), channelRequirement(channel.store_id)) };
  }

  /** A handler on the route's channel: 404 unless it is one of the organization's, 403 unless `managing` is allowed. */
  const onChannel =
    (managing: boolean, act: (request: DashboardRequest, found: { channel: ChannelResource; manages: boolean }, session: SessionControl) => Promise<DashboardAnswer>): DashboardRoute['handle'] =>
    async (request, session) => {
      const found = await channelOf(request);
      if (!found) return notFound(request);
      if (managing && !found.manages) return forbidden(request);
      return act(request, found, session);
    };

  return [
    {
      method: 'GET',
      path: '/channels',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const [channels, stores] = await Promise.all([listEmailChannels(readStore, orgOf(request)), storesOf(readStore, orgOf(request))]);
        return { page: channelListPage(request, channels, stores, creatableScopes(roleOf(request), stores).length > 0) };
      },
    },
    {
      method: 'GET',
      path: '/channels/new',
      access: REQUIRES_MEMBER,
      async handle(request) {
        const stores = await storesOf(readStore, orgOf(request));
        const scopes = creatableScopes(roleOf(request), stores);
        if (!scopes.length) return forbidden(request);
        const form = blankChannelForm();
        // A store owner has no organization-wide channel to choose: their first store is the default.
        if (scopes[0]) form.values.store_id = scopes[0]._id;
        return requireRecentPasskey(request, NEW_CHANNEL) ?? { page: newChannelPage(request, form, scopes, stores) };
      },
    },
    {
      method: 'POST',
      path: '/channels',
      access: REQUIRES_MEMBER,
      async handle(request, session) {
        const input = creationInput(request.form);
        if (!allows(roleOf(request), channelRequirement(input.store_id ?? null))) return forbidden(request);
        const steppedUp = requireRecentPasskey(request, NEW_CHANNEL);
        if (steppedUp) return steppedUp;
        try {
          const channel = await send<ChannelResource>(request, COMMANDS.emailChannelCreate, { orgId: orgOf(request), input });
          session.flash('channels.created', { name: channel.name });
          return { redirect: channelPath(channel.id) };
        } catch (error) {
          const { state, status } = refusal(request, error, formValues(request.form));
          const stores = await storesOf(readStore, orgOf(request));
          return { status, page: newChannelPage(request, state, creatableScopes(roleOf(request), stores), stores) };
        }
      },
    },
    {
      method: 'GET',
      path: '/channels/:id',
      access: REQUIRES_MEMBER,
      handle: onChannel(false, async (request, { channel, manages }) => ({
        page: channelPage(request, channel, channelFormOf(channel), await storesOf(readStore, orgOf(request)), manages),
      })),
    },
    {
      method: 'POST',
      path: '/channels/:id',
      access: REQUIRES_MEMBER,
      handle: onChannel(true, async (request, { channel }, session) => {
        try {
          const changed = await send<ChannelResource>(request, COMMANDS.emailChannelUpdate, { orgId: orgOf(request), id: channel.id, input: changesOf(request.form) });
          session.flash('channels.updated', { name: changed.name });
          return { redirect: channelPath(channel.id) };
        } catch (error) {
          const { state, status } = refusal(request, error, { ...formValues(request.form), store_id: channel.store_id ?? '' });
          return { status, page: channelPage(request, channel, state, await storesOf(readStore, orgOf(request)), true) };
        }
      }),
    },
    {
      method: 'POST',
      path: '/channels/:id/test',
      access: REQUIRES_MEMBER,
      handle: onChannel(true, async (request, { channel }, session) => {
        const result = await send<ChannelTestResult>(request, COMMANDS.emailChannelTest, { orgId: orgOf(request), id: channel.id, input: undefined });
        const error = result.error ?? '';
        if (result.delivered) session.flash('channels.test.delivered');
        // Said in the person's language when known; the transport's own words follow on the deliveries page, in the test's row.
        else session.flash('channels.test.failed', { error: knownDeliveryError(request.t, error) ?? error });
        // Where the test shows: the newest delivery.
        return { redirect: channelPath(channel.id, '/deliveries') };
      }),
    },
    {
      method: 'POST',
      path: '/channels/:id/delete',
      access: REQUIRES_MEMBER,
      handle: onChannel(true, async (request, { channel }, session) => {
        await send(request, COMMANDS.emailChannelDelete, { orgId: orgOf(request), id: channel.id, input: undefined });
        session.flash('channels.deleted', { name: channel.name });
        return { redirect: CHANNELS };
      }),
    },
    {
      method: 'GET',
      path: '/channels/:id/deliveries',
      access: REQUIRES_MEMBER,
      handle: onChannel(false, async (request, { channel }) => {
        const [deliveries, stores] = await Promise.all([channelDeliveries(readStore, orgOf(request), channel.id, request.now), storesOf(readStore, orgOf(request))]);
        return { page: deliveriesPage(request, channel, deliveries, storeZone(stores, channel.store_id)) };
      }),
    },
  ];
}
