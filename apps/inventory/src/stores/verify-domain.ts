import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import type { StoreCommandEnvelope, VerifyDomainInput } from '@pss/contracts';
import { CLOCK, type Clock } from '@pss/kernel';
import { AggregateRepository, type CommandContext } from '@pss/platform';
import { StoreAccess } from './store-access';
import { StoreDomains } from './store-domains';
import { storeDecider, type StoreCommand } from './store.decider';
import { storeStream } from './store.events';

export class VerifyStoreDomain {
  constructor(readonly envelope: StoreCommandEnvelope<VerifyDomainInput> & CommandMetaCarrier) {}
}

/**
 * A store proves its domain with the TXT strings the gateway found: the proof is checked before the domain
 * changes hands, then the store owns it and every other claim on it ends. Each step is idempotent, so a retry
 * after a failure half-way (or a redelivery) finishes what the first attempt began.
 */
@CommandHandler(VerifyStoreDomain)
export class VerifyStoreDomainHandler implements ICommandHandler<VerifyStoreDomain> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly stores: StoreAccess,
    private readonly domains: StoreDomains,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope: { orgId, storeId, input, command: meta } }: VerifyStoreDomain) {
    const store = await this.stores.ownedBy(orgId, storeId!);
    const at = this.clock.now();
    const context: CommandContext = { actor: commandActor(meta), orgId, deadline: meta?.deadline };
    const verify: StoreCommand = { type: 'VerifyDomain', txt: input.txt, at };
    storeDecider.decide(verify, store);
    const takenOver = await this.domains.own({ storeId: storeId!, orgId, domain: store.domain!, environment: store.environment! }, context);
    await this.aggregates.decide(storeStream(storeId!), storeDecider, verify, context);
    for (const claim of takenOver) {
      // In the losing store's organization, by the service: the verifying tenant's actor is none of its business.
      await this.aggregates.decide(storeStream(claim.storeId), storeDecider, { type: 'LoseDomainClaim', at }, { actor: 'system', orgId: claim.orgId, deadline: meta?.deadline });
    }
    return (await this.stores.written(storeId!)).store;
  }
}
