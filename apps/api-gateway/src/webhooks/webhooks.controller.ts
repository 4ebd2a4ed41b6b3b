import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { CommandIds } from '@pss/bus';
import { API_CHANNEL_TYPES, CHANNELS, COMMANDS, toResource, type ChannelDocument, type CreatedChannel } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { SecretBox, webhookSecretInTransit } from '@pss/secrets';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestCommandIds } from '../idempotency/request-command-ids';
import { ListQuery } from '../pagination/list-query.dto';
import { paginate } from '../pagination/paginate';
import { CreateWebhookBody, UpdateWebhookBody } from './webhook.dto';

/**
 * Notification channels (the spec's Webhook), all under webhooks:manage. The secret appears in the create
 * response only; the dashboard's e-mail channels are not the API's to list or change. Secrets cross the bus
 * sealed both ways (webhookSecretInTransit), never in plain text on a command or reply topic.
 */
@Controller(`${API_PREFIX}/webhooks`)
export class WebhooksController extends ApiController {
  constructor(private readonly secrets: SecretBox) {
    super();
  }

  /** Newest first. */
  @Get()
  @RequiresScope('webhooks:manage')
  list(@Query() query: ListQuery, @CurrentPrincipal() principal: Principal) {
    return paginate(this.channels, this.managedBy(principal), { field: 'created_at', direction: -1 }, query);
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('webhooks:manage')
  @Idempotent()
  async create(@Body() body: CreateWebhookBody, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds) {
    const created = (await this.send(COMMANDS.channelCreate, principal, undefined, this.sealed(body, principal), commandIds)) as CreatedChannel;
    return { ...created, secret: this.secrets.open(created.secret, webhookSecretInTransit(principal.actingOrgId)) };
  }

  @Get(':id')
  @RequiresScope('webhooks:manage')
  async get(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    const channel = await this.channels.findOne({ _id: id, ...this.managedBy(principal) });
    if (!channel) throw notFound('Webhook');
    return toResource(channel);
  }

  /** A `secret` rotates it: the next attempt, pending retries included, is signed with the new one. */
  @Patch(':id')
  @RequiresScope('webhooks:manage')
  update(@Param('id', UuidPipe) id: string, @Body() body: UpdateWebhookBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.channelUpdate, principal, id, this.sealed(body, principal));
  }

  @Delete(':id')
  @RequiresScope('webhooks:manage')
  delete(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.channelDelete, principal, id, {});
  }

  /** 200 whether or not the receiver took it: `{id, delivered, error}`. */
  @Post(':id/test')
  @HttpCode(200)
  @RequiresScope('webhooks:manage')
  test(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.channelTest, principal, id, {});
  }

  private get channels() {
    return this.readStore.collection<ChannelDocument>(CHANNELS);
  }

  private managedBy(principal: Principal) {
    return { org_id: principal.actingOrgId, type: { $in: API_CHANNEL_TYPES } };
  }

  /** The body without `org_id`, its secret (if any) sealed for the bus. */
  private sealed(body: CreateWebhookBody | UpdateWebhookBody, principal: Principal): object {
    const input = withoutOrgId(body);
    if (input.secret === undefined) return input;
    return { ...input, secret: this.secrets.seal(input.secret, webhookSecretInTransit(principal.actingOrgId)) };
  }
}
