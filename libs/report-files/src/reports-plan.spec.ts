import { ORGANIZATIONS, type OrganizationDocument } from '@pss/contracts';
import { MemoryReadStore } from '@pss/read-store';
import { organizationReportsRefusal, reportsPlanRefusal } from './reports-plan';

describe('the compliance reports plan rule', () => {
  it('refuses the processor-billed plan without compliance reports with plan_limit', () => {
    const refusal = reportsPlanRefusal({ plan: 'essential', billing_mode: 'processor' });
    expect(refusal).toMatchObject({ code: 'plan_limit', message: 'The essential plan does not include compliance reports' });
  });

  it('lets plans with compliance reports, and any partner-billed plan, through', () => {
    expect(reportsPlanRefusal({ plan: 'standard', billing_mode: 'processor' })).toBeUndefined();
    expect(reportsPlanRefusal({ plan: 'enterprise', billing_mode: 'processor' })).toBeUndefined();
    expect(reportsPlanRefusal({ plan: 'essential', billing_mode: 'partner' })).toBeUndefined();
  });

  it('reads the organization from the read model, and does not refuse one it does not have', async () => {
    const readStore = new MemoryReadStore();
    await readStore.collection<Pick<OrganizationDocument, '_id' | 'plan' | 'billing_mode'>>(ORGANIZATIONS).insertOne({ _id: 'org-essential', plan: 'essential', billing_mode: 'processor' });
    expect(await organizationReportsRefusal(readStore, 'org-essential')).toMatchObject({ code: 'plan_limit' });
    expect(await organizationReportsRefusal(readStore, 'org-unknown')).toBeUndefined();
  });
});
