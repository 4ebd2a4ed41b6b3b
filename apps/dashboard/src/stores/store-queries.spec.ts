import { ALERTS, ORGANIZATIONS, REPORT_SCHEDULES, REPORT_SNAPSHOTS, SCRIPTS, SDK_KEYS, STORE_ACTIVITY, STORES } from '@pss/contracts';
import { MemoryReadStore, type AnyDocument } from '@pss/read-store';
import { childOrganizations, HOME_STORES_PAGE, installEvidence, needsActionOf, storeOf, storeSummary, storesPage } from './store-queries';

const now = new Date('2026-05-13T12:00:00.000Z');
const SDK = 'https://pss.example/sdk/v1/sdk.js';
const store = (id: string, org_id = 'org-1', status = 'active') =>
  ({ _id: id, org_id, name: `Store ${id}`, domain: `${id}.example`, timezone: 'America/Sao_Paulo', status, sdk_key: `pk_${id}`, sdk_config: null }) as AnyDocument;

async function seeded(docs: Record<string, AnyDocument[]>): Promise<MemoryReadStore> {
  const readStore = new MemoryReadStore();
  for (const [collection, list] of Object.entries(docs)) for (const doc of list) await readStore.collection(collection).insertOne(doc);
  return readStore;
}

describe('the store pages read only the acting organization', () => {
  it("counts a store's scripts awaiting a decision and its open alerts by severity, nothing of another store or organization", async () => {
    const readStore = await seeded({
      [SCRIPTS]: [
        { _id: 'a', org_id: 'org-1', store_id: 's1', status: 'malicious' },
        { _id: 'b', org_id: 'org-1', store_id: 's1', status: 'needs_review' },
        { _id: 'c', org_id: 'org-1', store_id: 's1', status: 'needs_review' },
        { _id: 'd', org_id: 'org-1', store_id: 's1', status: 'authorized' },
        { _id: 'e', org_id: 'org-1', store_id: 's2', status: 'suspicious' },
        { _id: 'f', org_id: 'org-2', store_id: 's9', status: 'malicious' },
      ],
      [ALERTS]: [
        { _id: 'a', org_id: 'org-1', store_id: 's1', status: 'open', severity: 'critical' },
        { _id: 'b', org_id: 'org-1', store_id: 's1', status: 'resolved', severity: 'critical' },
        { _id: 'c', org_id: 'org-1', store_id: 's2', status: 'open', severity: 'low' },
      ],
    });
    expect(await needsActionOf(readStore, { org_id: 'org-1', store_id: 's1' })).toEqual({
      decisions: { malicious: 1, suspicious: 0, needs_review: 2 },
      alerts: { critical: 1, high: 0, medium: 0, low: 0, info: 0 },
    });
    expect(await needsActionOf(readStore, { org_id: 'org-1' })).toMatchObject({ decisions: { malicious: 1, suspicious: 1, needs_review: 2 }, alerts: { critical: 1, low: 1 } });
  });

  it("pages the organization's stores by the API's cursor, newest first, without deleted ones or another organization's", async () => {
    // Store ids are UUIDv7, in creation order: the cursor carries the last one.
    const uuid = (index: number) => `00000000-0000-7000-8000-${String(index).padStart(12, '0')}`;
    const ids = Array.from({ length: HOME_STORES_PAGE + 3 }, (_unused, index) => uuid(index));
    const readStore = await seeded({ [STORES]: [...ids.map((id) => store(id)), store(uuid(90), 'org-2'), store(uuid(99), 'org-1', 'deleted')] });
    const first = await storesPage(readStore, 'org-1', undefined);
    expect(first.stores.map((found) => found._id)).toEqual([...ids].reverse().slice(0, HOME_STORES_PAGE));
    const second = await storesPage(readStore, 'org-1', first.nextCursor!);
    expect(second).toEqual({ stores: expect.any(Array), nextCursor: null });
    expect(second.stores.map((found) => found._id)).toEqual([uuid(2), uuid(1), uuid(0)]);
    expect(await storeOf(readStore, 'org-2', uuid(0))).toBeNull();
    await expect(storesPage(readStore, 'org-1', 'edited')).rejects.toMatchObject({ code: 'validation_error' });
  });

  it("summarizes a store: its SDK, its last report on the chain and the next run of an active schedule", async () => {
    const readStore = await seeded({
      [STORE_ACTIVITY]: [{ _id: 's1', org_id: 'org-1', first_event_at: '2026-05-13T11:00:00.000Z', last_event_at: '2026-05-13T11:59:00.000Z', events_total: 7 }],
      [REPORT_SNAPSHOTS]: [
        { _id: 'r1', org_id: 'org-1', store_id: 's1', sequence: 1, created_at: '2026-05-04T09:00:00.000Z' },
        { _id: 'r2', org_id: 'org-1', store_id: 's1', sequence: 2, created_at: '2026-05-11T09:00:00.000Z' },
      ],
      [REPORT_SCHEDULES]: [{ _id: 's1', org_id: 'org-1', cadence: 'weekly', locale: 'pt-BR', active: true }],
    });
    const summary = await storeSummary(readStore, store('s1') as never, now);
    expect(summary).toMatchObject({
      sdk: { installed: true, last_event_at: '2026-05-13T11:59:00.000Z', events_total: 7, silent: false },
      lastReport: { id: 'r2', created_at: '2026-05-11T09:00:00.000Z' },
      nextReport: '2026-05-18T09:00:00.000Z',
    });
    await readStore.collection(REPORT_SCHEDULES).updateOne({ _id: 's1' }, { $set: { active: false } });
    expect((await storeSummary(readStore, store('s1') as never, now)).nextReport).toBeNull();
  });

  it("finds the CSP reports that name the SDK and the latest rotated key's end", async () => {
    const csp = (id: string, source: string, status = 'open') => ({ _id: id, org_id: 'org-1', store_id: 's1', type: 'CSP_VIOLATION', status, source });
    const readStore = await seeded({
      [ALERTS]: [csp('a', `${SDK}?key=pk_s1`), csp('b', 'https://pss.example'), csp('c', 'https://evil.example/x.js'), csp('d', SDK, 'resolved')],
      [SDK_KEYS]: [
        { _id: 'pk_s1', org_id: 'org-1', store_id: 's1', valid_until: null },
        { _id: 'pk_old', org_id: 'org-1', store_id: 's1', valid_until: '2026-05-12T10:00:00.000Z' },
        { _id: 'pk_older', org_id: 'org-1', store_id: 's1', valid_until: '2026-05-01T10:00:00.000Z' },
      ],
    });
    expect(await installEvidence(readStore, store('s1') as never, SDK, now)).toMatchObject({ sdkBlockedReports: 2, rotatedKeysValidUntil: ['2026-05-12T10:00:00.000Z'] });
  });

  it("lists a partner's children with what waits in each, most in need first", async () => {
    const readStore = await seeded({
      [ORGANIZATIONS]: [
        { _id: 'c1', name: 'Calm', parent_org_id: 'partner' },
        { _id: 'c2', name: 'Busy', parent_org_id: 'partner' },
        { _id: 'x', name: 'Not a child', parent_org_id: null },
      ],
      [STORES]: [store('s1', 'c1'), store('s2', 'c2'), store('s3', 'c2', 'suspended')],
      [ALERTS]: [{ _id: 'a', org_id: 'c2', store_id: 's2', status: 'open', severity: 'high' }],
    });
    const children = await childOrganizations(readStore, 'partner');
    expect(children.map(({ organization, stores, alerts }) => [organization.name, stores, alerts.high])).toEqual([
      ['Busy', 1, 1],
      ['Calm', 1, 0],
    ]);
  });
});
