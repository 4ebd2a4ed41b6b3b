import { auditLogCollection } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { recorded, replayedTwice } from '@pss/testkit';
import { ReportsAuditLogProjection } from './reports-audit-log.projection';

const by = (event: RecordedEvent): RecordedEvent => ({ ...event, metadata: { actor: 'api:pss_tok_ab', orgId: 'o1' } });

describe('ReportsAuditLogProjection replayed twice', () => {
  it("records a store's report schedule set and deleted", async () => {
    const events = [
      by(recorded('reportschedule-st1', 'ReportScheduleSet', { storeId: 'st1', orgId: 'o1', cadence: 'monthly', locale: 'pt-BR', active: true, by: 'api:pss_tok_ab', at: 'T1' })),
      by(recorded('reportschedule-st1', 'ReportScheduleDeleted', { storeId: 'st1', orgId: 'o1', by: 'api:pss_tok_ab', at: 'T2' })),
    ];
    const entries = (await replayedTwice(ReportsAuditLogProjection, events))[auditLogCollection('reports')];

    expect(entries.map(({ org_id, actor, action, details }) => ({ org_id, actor, action, details }))).toEqual([
      { org_id: 'o1', actor: 'api:pss_tok_ab', action: 'schedule.set', details: { store_id: 'st1', cadence: 'monthly', locale: 'pt-BR', active: true } },
      { org_id: 'o1', actor: 'api:pss_tok_ab', action: 'schedule.deleted', details: { store_id: 'st1' } },
    ]);
  });
});
