import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { commandActor, type CommandMetaCarrier } from '@pss/bus';
import { ALERTS, toResource, type AlertDocument, type AlertResource, type UpdateAlertRequest } from '@pss/contracts';
import { CLOCK, notFound, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { alertDecider } from './alert.decider';
import { alertStream } from './alert.events';
import { AlertProjection } from './alert.projection';

export class UpdateAlert extends Command<AlertResource> {
  constructor(readonly request: UpdateAlertRequest & CommandMetaCarrier) {
    super();
  }
}

/**
 * PATCH /alerts/{id}: resolve or reopen, note, snooze. Publishes nothing (the spec: no webhook event results);
 * another organization's alert is not found, as a missing one.
 */
@CommandHandler(UpdateAlert)
export class UpdateAlertHandler implements ICommandHandler<UpdateAlert> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly alerts: AlertProjection,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ request: { orgId, alertId, input, command: meta } }: UpdateAlert): Promise<AlertResource> {
    const actor = commandActor(meta);
    const command = { type: 'ChangeAlert' as const, orgId, by: actor, status: input.status, note: input.note, snoozedUntil: input.snoozed_until, at: this.clock.now() };
    await this.aggregates.decide(alertStream(alertId), alertDecider, command, { actor, orgId, deadline: meta?.deadline });
    // As the write left it, whether or not the read model has it yet.
    const doc = await this.aggregates.written<AlertDocument>(alertStream(alertId), this.alerts, ALERTS, alertId);
    if (!doc) throw notFound('Alert');
    return toResource(doc);
  }
}
