import { Controller, Injectable } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { REPORT_TOPICS, type IntegrationEvent, type ReportScheduleChangedData, type ReportScheduleResource } from '@pss/contracts';
import type { Decider, DomainEvent } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';

/**
 * The spec keeps each store's report schedule in its organization's partner_settings: reports owns the
 * schedules and publishes `reports.schedule.changed`; inventory mirrors them here (stream `orgsettings-<org>`),
 * keeping per store the highest revision heard, so a late or repeated message changes nothing.
 */
export type ReportScheduleMirrored = DomainEvent<
  'ReportScheduleMirrored',
  { orgId: string; storeId: string; revision: number; schedule: ReportScheduleResource | null }
>;

type Mirror = { type: 'Mirror' } & ReportScheduleMirrored['data'];

export const reportScheduleMirrorDecider: Decider<Record<string, number>, Mirror, ReportScheduleMirrored> = {
  initialState: () => ({}),
  decide: ({ type: _type, ...data }, revisions) => (data.revision > (revisions[data.storeId] ?? -1) ? [{ type: 'ReportScheduleMirrored', data }] : []),
  evolve: (revisions, { data }) => ({ ...revisions, [data.storeId]: data.revision }),
};

export const organizationSettingsStream = (orgId: string): string => `orgsettings-${orgId}`;

@Controller()
@Injectable()
export class ReportScheduleSettingsConsumer {
  constructor(private readonly aggregates: AggregateRepository) {}

  @EventPattern(REPORT_TOPICS.scheduleChanged)
  async mirror(@Payload() event: IntegrationEvent<ReportScheduleChangedData>): Promise<void> {
    if (!event.org_id) return;
    const { store_id: storeId, revision, schedule } = event.data;
    const command: Mirror = { type: 'Mirror', orgId: event.org_id, storeId, revision, schedule };
    await this.aggregates.decide(organizationSettingsStream(event.org_id), reportScheduleMirrorDecider, command, { actor: 'reports', orgId: event.org_id });
  }
}
