import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { OrganizationEvent } from './organization.decider';
import type { ReportScheduleMirrored } from './report-schedule-settings';

export const isOrganizationEvent = canHandle<OrganizationEvent>({
  OrganizationCreated: true,
  OwnerInvitationRecorded: true,
  OwnerInvitationIssued: true,
});
const isScheduleMirrored = canHandle<ReportScheduleMirrored>({ ReportScheduleMirrored: true });

export class OrganizationProjection extends readModelProjection({
  name: 'organizations',
  streamPrefixes: ['org-', 'orgsettings-'],
  collections: {
    [ORGANIZATIONS]: [
      { key: { parent_org_id: 1, created_at: -1, _id: -1 } },
      // Owner invitations ask whether an address already owns an organization.
      { key: { owner_email: 1 } },
    ],
  },
  canHandle: (event: RecordedEvent) => isOrganizationEvent(event) || isScheduleMirrored(event),
  async evolve(event, context) {
    if (event.type === 'ReportScheduleMirrored') {
      // partner_settings.report_schedules, keyed by store id (spec, Report schedule).
      const { orgId, storeId, schedule } = event.data;
      const path = `partner_settings.report_schedules.${storeId}`;
      await applyOnce(context.collection<OrganizationDocument>(ORGANIZATIONS), orgId, event, schedule ? { $set: { [path]: schedule } } : { $unset: { [path]: '' } });
      return;
    }
    if (event.type === 'OwnerInvitationIssued') {
      const { orgId, tokenHash, expiresAt } = event.data;
      await applyOnce(context.collection<OrganizationDocument>(ORGANIZATIONS), orgId, event, { $set: { _owner_invitation: { token_hash: tokenHash, expires_at: expiresAt } } });
      return;
    }
    if (event.type !== 'OrganizationCreated') return;
    const { data } = event;
    await applyOnce(context.collection<OrganizationDocument>(ORGANIZATIONS), data.orgId, event, {
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
  },
}) {}
