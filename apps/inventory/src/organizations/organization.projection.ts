import { Injectable } from '@nestjs/common';
import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, type Projection, type ProjectionContext } from '@pss/projections';
import type { OrganizationEvent } from './organization.decider';
import type { ReportScheduleMirrored } from './report-schedule-settings';

export const isOrganizationEvent = canHandle<OrganizationEvent>({
  OrganizationCreated: true,
  OwnerInvitationRecorded: true,
});
const isScheduleMirrored = canHandle<ReportScheduleMirrored>({ ReportScheduleMirrored: true });

@ReadModelProjection()
@Injectable()
export class OrganizationProjection implements Projection {
  readonly name = 'organizations';
  readonly filter = { streamPrefixes: ['org-', 'orgsettings-'] };
  readonly collections: Projection['collections'] = {
    [ORGANIZATIONS]: [
      { key: { parent_org_id: 1, created_at: -1, _id: -1 } },
      // Owner invitations ask whether an address already owns an organization.
      { key: { owner_email: 1 } },
    ],
  };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    if (!isOrganizationEvent(recorded) && !isScheduleMirrored(recorded)) return;
    const event = recorded;
    if (event.type === 'ReportScheduleMirrored') {
      // partner_settings.report_schedules, keyed by store id (spec, Report schedule).
      const { orgId, storeId, schedule } = event.data;
      const path = `partner_settings.report_schedules.${storeId}`;
      await applyOnce(context.collection<OrganizationDocument>(ORGANIZATIONS), orgId, recorded, schedule ? { $set: { [path]: schedule } } : { $unset: { [path]: '' } });
      return;
    }
    if (event.type !== 'OrganizationCreated') return;
    const { data } = event;
    await applyOnce(context.collection<OrganizationDocument>(ORGANIZATIONS), data.orgId, recorded, {
      $set: {
        name: data.name,
        plan: data.plan,
        billing_mode: data.billingMode,
        parent_org_id: data.parentOrgId,
        owner_email: data.ownerEmail,
        partner_settings: {},
        created_at: data.createdAt,
      },
    }, { upsert: true });
  }
}
