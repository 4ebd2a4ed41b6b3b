import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PLANS, type StoreCommandEnvelope, type StoreEnvironment } from '@pss/contracts';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { CLOCK, notFound, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { organizationDecider, organizationStream, type OrganizationProfile } from '../organizations/organization.decider';
import { newChallengeValue } from './domain-challenge';
import { sdkConfigFields } from './sdk-config';
import { generateSdkKey } from './sdk-key';
import { StoreAccess } from './store-access';
import { StoreDomains } from './store-domains';
import { storeDecider, type PageInput, type RecipientInput, type StoreCommand } from './store.decider';
import { storeStream } from './store.events';
import { storeQuotaDecider, storeQuotaStream } from './store-quota.decider';

export interface CreateStoreInput extends Record<string, unknown> {
  domain: string;
  environment?: StoreEnvironment;
  name?: string;
  country?: string;
  timezone?: string;
  emergency_contact?: string | null;
  recipients?: RecipientInput[];
  payment_pages?: PageInput[];
}

export class CreateStore {
  constructor(readonly envelope: StoreCommandEnvelope<CreateStoreInput> & CommandMetaCarrier) {}
}

/**
 * Creating a store touches three consistency boundaries: the claim on its domain, the organization's store
 * quota and the store itself. Each is claimed in that order (the spec's: a taken domain is 409 before a full plan
 * is 403) and given back if a later one refuses, so a refused request leaves no trace that would block the next one.
 */
@CommandHandler(CreateStore)
export class CreateStoreHandler implements ICommandHandler<CreateStore> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly stores: StoreAccess,
    private readonly domains: StoreDomains,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope: { orgId, input, command: meta } }: CreateStore) {
    const context: CommandContext = { actor: commandActor(meta), orgId, deadline: meta?.deadline };
    const { state: organization } = await this.aggregates.load(organizationStream(orgId), organizationDecider);
    if (!organization.profile) throw notFound('Organization');
    const at = this.clock.now();
    const storeId = uuidv7(at.getTime());
    // The command claimed first: a redelivery, or the client's retry of a create that timed out, answers the store
    // the first delivery created instead of creating a second one (or meeting its own domain as a 409).
    const claim = meta ? await this.aggregates.claimCommand(meta.id, storeId, context) : undefined;
    if (claim?.earlier && !claim.abandoned) return this.createdEarlier(claim.owner, context);
    // A first delivery that died midway (abandoned) is finished with the id it chose: its reservations are its own.
    const id = claim?.owner ?? storeId;
    if (claim?.abandoned && (await this.exists(id))) return this.answer(id);
    try {
      return await this.create(id, orgId, input, organization.profile, at, context);
    } catch (error) {
      // Refused: the claim goes back, so the command decides again if it comes again. Created (the answer failed):
      // the claim stays, so a retry answers this store.
      if (meta && !(await this.exists(id))) await this.aggregates.releaseCommand(meta.id, id, context);
      throw error;
    }
  }

  private async exists(storeId: string): Promise<boolean> {
    const { state } = await this.aggregates.load(storeStream(storeId), storeDecider);
    return state.storeId !== undefined;
  }

  private async createdEarlier(storeId: string, context: CommandContext) {
    await this.aggregates.createdEarlier(storeStream(storeId), storeDecider, (store) => store.storeId !== undefined, context);
    return this.answer(storeId);
  }

  private async create(
    storeId: string,
    orgId: string,
    input: CreateStoreInput,
    { plan, billingMode }: OrganizationProfile,
    at: Date,
    context: CommandContext,
  ) {
    const environment = input.environment ?? 'production';
    const command: StoreCommand = {
      type: 'CreateStore',
      storeId,
      orgId,
      domain: input.domain,
      environment,
      sdkKey: generateSdkKey(),
      profile: { name: input.name, country: input.country, timezone: input.timezone, emergency_contact: input.emergency_contact },
      sdkConfig: sdkConfigFields(input),
      recipients: input.recipients ?? [],
      pages: input.payment_pages ?? [],
      challengeValue: newChallengeValue(),
      at,
      newId: () => uuidv7(at.getTime()),
    };
    // Validates the whole request before anything is claimed.
    const [created] = storeDecider.decide(command, storeDecider.initialState());
    const onDomain = { storeId, orgId, domain: (created.data as { domain: string }).domain, environment };

    const limit = billingMode === 'partner' ? Number.POSITIVE_INFINITY : PLANS[plan].stores;
    const quota = storeQuotaStream(orgId);
    await this.domains.claim(onDomain, context);
    try {
      await this.aggregates.decide(quota, storeQuotaDecider, { type: 'TakeStoreSlot', orgId, storeId, limit, plan }, context);
    } catch (error) {
      await this.domains.release(onDomain, context);
      throw error;
    }
    try {
      await this.aggregates.decide(storeStream(storeId), storeDecider, command, context);
    } catch (error) {
      await this.domains.release(onDomain, context);
      await this.aggregates.decide(quota, storeQuotaDecider, { type: 'FreeStoreSlot', orgId, storeId }, context);
      throw error;
    }

    return this.answer(storeId);
  }

  /** The created store as its write left it, whether or not the read models have it yet. */
  private async answer(storeId: string) {
    const { store, pages } = await this.stores.written(storeId);
    return { ...store, pages, snippets: this.stores.snippets(store.sdk_key) };
  }
}
