import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '@pss/kernel';
import { ManualClock, sri } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { SnapshotRetentionJob } from '@pss/reports/src/snapshot/snapshot-retention.job';

const SCOPES = ['stores:write', 'reports:read', 'reports:generate'];
const WEEK = 'period_start=2026-11-23T00:00:00Z&period_end=2026-11-30T00:00:00Z';
const DAY_MS = 24 * 3600_000;

/** Issue 29, item 2: what report snapshots keep on disk, shared by equal reports and removed past their retention. */
describe('report snapshot storage (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T20:00:00.000Z');
  let service: EmbeddedHarness;
  let token: string;
  let store: any;

  const get = (url: string) => service.request('GET', `/api/v1${url}`, { token });
  /** The data files in the file store (report data and bodies are JSON; PDFs are not counted). */
  const dataFiles = () =>
    readdirSync(join(service.config.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.json')).length;
  /** The check docs/reports.md gives an assessor. */
  const sha256Of = (data: unknown) => createHash('sha256').update(canonicalJson(data), 'utf8').digest('hex');

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ clock, env: { REPORT_ON_DEMAND_RETENTION_DAYS: '90' } });
    ({ token } = await service.tenant(SCOPES, { plan: 'growth', 'billing-mode': 'processor' }));
    store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.storage.example/pay.js', hash: sri('pay') }]);
    await get(`/reports/pci?store_id=${store.id}`); // waits for the facts, and is itself an on-demand snapshot
    expect((await service.request('POST', '/api/v1/reports/pci/schedule', { token, body: { store_id: store.id, cadence: 'weekly' } })).status).toBe(200);
  });
  afterAll(() => service?.close());

  let scheduled: any;
  let first: Awaited<ReturnType<typeof get>>;
  let second: Awaited<ReturnType<typeof get>>;

  it('stores one body for the scheduled and the on-demand snapshots of one period, each served whole and hashing to its sha256', async () => {
    clock.set('2026-11-30T09:00:00.000Z');
    const before = dataFiles();
    [scheduled] = (await service.ops('reports.run-schedule', { at: '2026-11-30T09:00:00Z' })).snapshots;
    first = await get(`/reports/pci?store_id=${store.id}&${WEEK}&regenerate=true`);
    const firstCsv = await get(`/reports/pci/snapshots/${first.body.id}?format=csv&csv_table=scripts`);
    clock.advance(60_000);
    second = await get(`/reports/pci?store_id=${store.id}&${WEEK}&regenerate=true`);

    expect([first.status, second.status, first.body.kind, scheduled.store_id]).toEqual([200, 200, 'on_demand', store.id]);
    expect(new Set([scheduled.id, first.body.id, second.body.id]).size).toBe(3);
    expect(dataFiles() - before).toBe(1);
    for (const { body } of [first, second]) {
      expect(sha256Of(body.data)).toBe(body.sha256);
      expect([body.data.meta.report_id, body.data.meta.generated_at]).toEqual([body.id, body.created_at]);
      expect(body.data.scripts.map((script: { src: string }) => script.src)).toEqual(['https://cdn.storage.example/pay.js']);
    }
    expect(second.body.previous_sha256).toBe(first.body.sha256);
    // What the first answer gave, byte for byte, once its body is shared.
    const again = await get(`/reports/pci/snapshots/${first.body.id}`);
    expect(again.text).toBe(first.text.replace('"generated":true', '"generated":false'));
    expect((await get(`/reports/pci/snapshots/${first.body.id}?format=csv&csv_table=scripts`)).text).toBe(firstCsv.text);
    expect((await get(`/reports/pci/snapshots/${scheduled.id}`)).body.sha256).toBe(scheduled.sha256);
    const pdf = await get(`/reports/pci/snapshots/${second.body.id}?format=pdf`);
    const location = new URL(pdf.headers.location as string);
    const file = await service.request('GET', `${location.pathname}${location.search}`);
    expect([pdf.status, file.status, file.text.slice(0, 5)]).toEqual([302, 200, '%PDF-']);
  });

  it('writes a new body for an undated report, whose period ends when it is asked', async () => {
    const before = dataFiles();
    await get(`/reports/pci?store_id=${store.id}`);
    clock.advance(1);
    await get(`/reports/pci?store_id=${store.id}`);
    expect(dataFiles() - before).toBe(2);
  });

  it('expires on-demand snapshots past their retention (410, files gone), keeps the scheduled ones and the chain whole', async () => {
    const filesBefore = dataFiles();
    clock.advance(91 * DAY_MS);
    const recent = await get(`/reports/pci?store_id=${store.id}`);

    const expired = await service.app.get(SnapshotRetentionJob).run();

    expect(expired).toBe(5);
    for (const format of ['json', 'csv', 'pdf']) {
      const answer = await get(`/reports/pci/snapshots/${first.body.id}?format=${format}`);
      expect([answer.status, answer.body.error.code]).toEqual([410, 'gone']);
      expect(answer.body.error.message).toMatch(/^The data of this on-demand snapshot was removed on 2027-03-01 under the retention policy/);
    }
    expect((await get(`/reports/pci/snapshots/${recent.body.id}`)).status).toBe(200);
    // The scheduled snapshot keeps the body it shared with the expired ones; the undated ones' bodies are gone.
    const kept = await get(`/reports/pci/snapshots/${scheduled.id}`);
    expect([kept.status, sha256Of(kept.body.data)]).toEqual([200, scheduled.sha256]);
    expect(dataFiles()).toBe(filesBefore + 1 - 3);
    // Listed still, on the chain: an assessor's check and the operator's pass.
    const listed = (await get(`/reports/pci/snapshots?store_id=${store.id}&limit=100`)).body.data;
    expect(listed.map((snapshot: { sequence: number }) => snapshot.sequence)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(await service.ops('reports.verify-chain', { store: store.id })).toEqual({
      store_id: store.id,
      snapshots: 7,
      expired: 5,
      head_sha256: recent.body.sha256,
      ok: true,
      breaks: [],
    });
    // A dated request for the expired period is answered by the kept scheduled snapshot, never by an expired one.
    expect((await get(`/reports/pci?store_id=${store.id}&${WEEK}`)).body.id).toBe(scheduled.id);
    expect(await service.app.get(SnapshotRetentionJob).run()).toBe(0);
  });
});
