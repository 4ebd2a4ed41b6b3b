import { ORGANIZATIONS, type ReportScheduleResource } from '@pss/contracts';
import { expectReplayedTwice, recorded, storedEventsOn } from '@pss/testkit';
import type { OrganizationEvent } from './organization.decider';
import { OrganizationProjection } from './organization.projection';
import type { ReportScheduleMirrored } from './report-schedule-settings';

const stored = storedEventsOn<OrganizationEvent>('org-p1');
const mirrored = (storeId: string, revision: number, schedule: ReportScheduleResource | null) => {
  const data: ReportScheduleMirrored['data'] = { orgId: 'p1', storeId, revision, schedule };
  return recorded('orgsettings-p1', 'ReportScheduleMirrored', data);
};

const schedule = (storeId: string, cadence: ReportScheduleResource['cadence']): ReportScheduleResource => ({
  store_id: storeId,
  cadence,
  locale: 'pt-BR',
  active: true,
  updated_at: 'T1',
  updated_by: 'api:pss_ab12',
});

/** Every organization event handled twice in a row, then the whole log again: the same organization as once. */
describe('OrganizationProjection replayed twice', () => {
  it('shows the organization as created, with the report schedules mirrored since, in their order', async () => {
    const events = [
      stored('OrganizationCreated', { orgId: 'p1', name: 'Parceiro', plan: 'growth', billingMode: 'partner', parentOrgId: null, ownerEmail: 'dono@parceiro.example', createdAt: 'T0' }),
      stored('OwnerInvitationRecorded', { orgId: 'p1', outcome: 'sent', at: 'T1' }),
      mirrored('s1', 0, schedule('s1', 'weekly')),
      mirrored('s2', 0, schedule('s2', 'weekly')),
      mirrored('s1', 1, schedule('s1', 'monthly')),
      mirrored('s2', 1, null),
    ];
    await expectReplayedTwice(OrganizationProjection, events, ORGANIZATIONS, [
      {
        _id: 'p1',
        name: 'Parceiro',
        plan: 'growth',
        billing_mode: 'partner',
        parent_org_id: null,
        owner_email: 'dono@parceiro.example',
        created_at: 'T0',
        partner_settings: { report_schedules: { s1: schedule('s1', 'monthly') } },
      },
    ]);
  });
});
