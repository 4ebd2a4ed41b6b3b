import { ORGANIZATIONS } from '@pss/contracts';
import { deciderSpec, project, recorded } from '@pss/testkit';
import { OrganizationProjection } from './organization.projection';
import { reportScheduleMirrorDecider, type ReportScheduleMirrored } from './report-schedule-settings';

const schedule = { store_id: 's1', cadence: 'weekly' as const, locale: 'pt-BR' as const, active: true, updated_at: 'T1', updated_by: 'api:x' };
const mirrored = (revision: number, withSchedule = true): ReportScheduleMirrored => ({
  type: 'ReportScheduleMirrored',
  data: { orgId: 'o1', storeId: 's1', revision, schedule: withSchedule ? schedule : null },
});

describe('report schedules in partner_settings', () => {
  const spec = deciderSpec(reportScheduleMirrorDecider);

  it('mirrors a newer revision and ignores a repeated or late one', () => {
    spec.given([]).when({ type: 'Mirror', ...mirrored(0).data }).then([mirrored(0)]);
    spec.given([mirrored(0), mirrored(1, false)]).when({ type: 'Mirror', ...mirrored(1, false).data }).thenNothingHappens();
    spec.given([mirrored(1, false)]).when({ type: 'Mirror', ...mirrored(0).data }).thenNothingHappens();
  });

  it('shows it keyed by store id, and removes it when deleted, replayed twice', async () => {
    const created = recorded('org-o1', 'OrganizationCreated', { orgId: 'o1', name: 'Loja', plan: 'growth', billingMode: 'partner', parentOrgId: null, ownerEmail: null, createdAt: 'T0' });
    const set = [created, recorded('orgsettings-o1', mirrored(0).type, mirrored(0).data)];
    const [organization] = (await project(new OrganizationProjection(), set, 'twice'))[ORGANIZATIONS];
    expect(organization.partner_settings).toEqual({ report_schedules: { s1: schedule } });
    const deleted = [...set, recorded('orgsettings-o1', mirrored(1, false).type, mirrored(1, false).data)];
    const [after] = (await project(new OrganizationProjection(), deleted, 'twice'))[ORGANIZATIONS];
    expect(after.partner_settings).toEqual({ report_schedules: {} });
  });
});
