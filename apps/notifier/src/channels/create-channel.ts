import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  assertWebhookSettings,
  channelTypeOf,
  WEBHOOK_NAME_MAX,
  type ChannelCommandEnvelope,
  type CreateChannelInput,
  type CreatedChannel,
} from '@pss/contracts';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { CLOCK, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { SecretBox, webhookSecretInTransit } from '@pss/secrets';
import { channelDecider } from './channel.decider';
import { channelStream, type Channel } from './channel.events';
import { ChannelAccess } from './channel-access';

export class CreateChannel extends Command<CreatedChannel> {
  constructor(readonly request: ChannelCommandEnvelope<CreateChannelInput> & CommandMetaCarrier) {
    super();
  }
}

/** `whsec_` and 32 random bytes in lowercase hex: header- and URL-safe, and easy for secret scanners to spot. */
const generateSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

/**
 * POST /webhooks: a channel of the acting organization, for one of its stores or for all of them. Answered with
 * the secret, generated when none was given: the only time it is ever shown. The secret crosses the bus sealed
 * both ways (webhookSecretInTransit): the gateway seals the one the client gave and opens the one answered.
 */
@CommandHandler(CreateChannel)
export class CreateChannelHandler implements ICommandHandler<CreateChannel> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly secrets: SecretBox,
    private readonly access: ChannelAccess,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ request: { orgId, input, command: meta } }: CreateChannel): Promise<CreatedChannel> {
    const context: CommandContext = { actor: commandActor(meta), orgId, deadline: meta?.deadline };
    const at = this.clock.now();
    const channelId = uuidv7(at.getTime());
    // The command claimed first: a redelivery, or the client's retry of a create that timed out, answers the channel
    // (and the secret) the first delivery created instead of creating a second one.
    const claim = meta ? await this.aggregates.claimCommand(meta.id, channelId, context) : undefined;
    if (claim?.earlier) return this.createdEarlier(claim.owner, input, context);
    try {
      return await this.create(channelId, orgId, input, at, context);
    } catch (error) {
      // Refused: the claim goes back, so the command decides again if it comes again.
      if (meta && !(await this.load(channelId))) await this.aggregates.releaseCommand(meta.id, channelId, context);
      throw error;
    }
  }

  private async create(channelId: string, orgId: string, input: CreateChannelInput, at: Date, context: CommandContext): Promise<CreatedChannel> {
    // Ids are compared as stored, in lower case, whatever case the client sent.
    const storeId = input.store_id?.toLowerCase() ?? null;
    assertWebhookSettings(input, true);
    await this.access.assertRoomFor(orgId, storeId);
    const secret = input.secret === undefined ? generateSecret() : this.secrets.open(input.secret, webhookSecretInTransit(orgId));
    const format = input.format ?? 'json';
    const channel: Channel = {
      channelId,
      orgId,
      storeId,
      type: channelTypeOf(format),
      format,
      name: input.name ?? new URL(input.url).host.slice(0, WEBHOOK_NAME_MAX),
      url: input.url,
      events: distinct(input.events),
      minSeverity: input.min_severity ?? 'high',
      active: input.active ?? true,
      secret: this.secrets.seal(secret, channelId),
      recipients: null,
    };
    await this.aggregates.decide(channelStream(channelId), channelDecider, { type: 'CreateChannel', channel, at }, context);
    return this.answer(channelId, orgId, secret, input);
  }

  private async createdEarlier(channelId: string, input: CreateChannelInput, context: CommandContext): Promise<CreatedChannel> {
    // Every channel this handler creates has a secret.
    const { channel } = await this.aggregates.createdEarlier(channelStream(channelId), channelDecider, (state) => !!state.channel?.secret, context);
    // The first answer may never have reached the client: the secret is shown again, to the same request only.
    return this.answer(channelId, channel!.orgId, this.secrets.open(channel!.secret!, channelId), input);
  }

  /** The created channel, its secret sealed for the gateway. */
  private async answer(channelId: string, orgId: string, secret: string, input: CreateChannelInput): Promise<CreatedChannel> {
    const sealed = this.secrets.seal(secret, webhookSecretInTransit(orgId));
    return { ...(await this.access.written(channelId)), secret: sealed, secret_generated: input.secret === undefined };
  }

  private async load(channelId: string): Promise<Channel | undefined> {
    return (await this.aggregates.load(channelStream(channelId), channelDecider)).state.channel;
  }
}

/** An event type listed twice is listed once; an absent list is null (all events). */
export const distinct = (events: string[] | null | undefined): string[] | null => (events ? [...new Set(events)] : null);
