import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import type { StoreCommandEnvelope } from '@pss/contracts';
import { CLOCK, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { sdkConfigFields } from './sdk-config';
import { generateSdkKey } from './sdk-key';
import { StoreAccess } from './store-access';
import { StoreDomains } from './store-domains';
import { changeOf, storeDecider, type PageInput, type RecipientInput, type StoreCommand } from './store.decider';
import { storeStream, type StoreEvent } from './store.events';
import { storeQuotaDecider, storeQuotaStream } from './store-quota.decider';

export interface UpdateStoreInput extends Record<string, unknown> {
  name?: string;
  country?: string;
  timezone?: string;
  emergency_contact?: string | null;
  recipients?: RecipientInput[];
}

export type StoreChange =
  | { kind: 'update'; input: UpdateStoreInput }
  | { kind: 'suspend' }
  | { kind: 'rotate-key' }
  | { kind: 'add-pages'; pages: PageInput[] };

export class ChangeStore {
  constructor(readonly envelope: StoreCommandEnvelope<StoreChange> & CommandMetaCarrier) {}
}

/** Every change to an existing store: check it is the caller's, decide, answer from the decided state. */
@CommandHandler(ChangeStore)
export class ChangeStoreHandler implements ICommandHandler<ChangeStore> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly stores: StoreAccess,
    private readonly domains: StoreDomains,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope: { orgId, storeId, input, command } }: ChangeStore) {
    const store = await this.stores.ownedBy(orgId, storeId!);
    const at = this.clock.now();
    const context = { actor: commandActor(command), orgId, deadline: command?.deadline };
    const { events, state } = await this.aggregates.decide(storeStream(storeId!), storeDecider, this.command(input, at, command?.id), context);
    // A redelivery changed nothing: it answers with what its first delivery did.
    const change = events[0] ?? changeOf(state, command?.id);
    switch (input.kind) {
      case 'update':
        return (await this.stores.written(storeId!)).store;
      case 'suspend':
        await this.aggregates.decide(storeQuotaStream(orgId), storeQuotaDecider, { type: 'FreeStoreSlot', orgId, storeId: storeId! }, context);
        // A suspended store is never resumed: holding its domain would keep the shop that owns it out for good.
        await this.domains.release({ storeId: storeId!, orgId, domain: store.domain!, environment: store.environment! }, context);
        return { id: storeId!, status: 'suspended' as const };
      case 'rotate-key': {
        const rotated = change as Extract<StoreEvent, { type: 'SdkKeyRotated' }>;
        return {
          id: storeId!,
          sdk_key: rotated.data.sdkKey,
          previous_key_valid_until: rotated.data.previousKeyValidUntil,
          snippets: this.stores.snippets(rotated.data.sdkKey),
        };
      }
      case 'add-pages': {
        const added = change as Extract<StoreEvent, { type: 'PaymentPagesAdded' }>;
        return { data: (await this.stores.written(storeId!, added.data.pages.map((page) => page.id))).pages };
      }
    }
  }

  private command(change: StoreChange, at: Date, commandId: string | undefined): StoreCommand {
    const newId = () => uuidv7(at.getTime());
    switch (change.kind) {
      case 'update': {
        const { name, country, timezone, emergency_contact, recipients } = change.input;
        return { type: 'UpdateStore', profile: { name, country, timezone, emergency_contact }, sdkConfig: sdkConfigFields(change.input), recipients, at, newId };
      }
      case 'suspend':
        return { type: 'SuspendStore', at };
      case 'rotate-key':
        return { type: 'RotateSdkKey', sdkKey: generateSdkKey(), at, commandId };
      case 'add-pages':
        return { type: 'AddPaymentPages', pages: change.pages, at, newId, commandId };
    }
  }
}
