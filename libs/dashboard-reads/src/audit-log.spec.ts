import { auditLogCollection, type AuditEntryDocument, type AuditLogOwner } from '@pss/contracts';
import { MemoryReadStore } from '@pss/read-store';
import { auditLog, auditLogCsv } from './audit-log';

const id = (n: number) => `0190a4b2-8d3c-7e1f-9a2b-${String(n).padStart(12, '0')}`;

async function storeWith(entries: Array<[AuditLogOwner, number, string, Partial<AuditEntryDocument>?]>): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (const [owner, n, time, fields] of entries) {
    await store.collection<AuditEntryDocument>(auditLogCollection(owner)).insertOne({
      _id: id(n), org_id: 'o1', time, actor: 'system', action: 'rule.created', target: { type: 'rule', id: `r${n}`, label: null }, details: {}, ...fields,
    });
  }
  return store;
}

describe('auditLog', () => {
  it("merges every service's part, newest first, ids breaking ties, in pages that neither skip nor repeat", async () => {
    const store = await storeWith([
      ['inventory', 1, '2026-03-01T10:00:00.000Z'],
      ['notifier', 2, '2026-03-01T11:00:00.000Z'],
      ['inventory', 3, '2026-03-01T11:00:00.000Z'],
      ['reports', 4, '2026-03-01T09:00:00.000Z'],
      ['alerts', 5, '2026-03-01T12:00:00.000Z', { org_id: 'o2' }],
    ]);
    const first = await auditLog(store, 'o1', {}, { limit: 2 });
    const second = await auditLog(store, 'o1', {}, { limit: 2, cursor: first.next_cursor! });

    expect(first.entries.map((entry) => entry.id)).toEqual([id(3), id(2)]);
    expect(second).toEqual({ entries: [expect.objectContaining({ id: id(1) }), expect.objectContaining({ id: id(4) })], next_cursor: null });
  });

  it('refuses a limit out of range, an unparsable date and an empty range', async () => {
    const store = await storeWith([]);
    await expect(auditLog(store, 'o1', {}, { limit: 201 })).rejects.toMatchObject({ details: [expect.objectContaining({ field: 'limit' })] });
    await expect(auditLog(store, 'o1', { to: '2026-13-40T00:00:00Z' })).rejects.toMatchObject({ details: [expect.objectContaining({ field: 'to' })] });
    await expect(auditLog(store, 'o1', { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' })).rejects.toMatchObject({ code: 'validation_error' });
  });
});

describe('auditLogCsv', () => {
  it('neutralizes a justification or label a spreadsheet would run as a formula', async () => {
    const store = await storeWith([['inventory', 1, '2026-03-01T10:00:00.000Z', { target: { type: 'script', id: 's1', label: '=HYPERLINK("x")' }, details: { justification: '=1+1' } }]]);
    let csv = '';
    for await (const chunk of auditLogCsv(store, 'o1', {})) csv += chunk;

    expect(csv).toBe(
      '\uFEFFtime_utc,actor,action,target_type,target_id,target_label,details\r\n' +
        `2026-03-01T10:00:00.000Z,system,rule.created,script,s1,"'=HYPERLINK(""x"")","{""justification"":""=1+1""}"\r\n`,
    );
  });
});
