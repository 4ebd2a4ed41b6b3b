import { SdkActivityProjection, SDK_HOURS, SDK_PAGES, SDK_STORES } from './facts/sdk-activity.projection';
import { expectReplayedTwice, project, recorded, replayedTwice } from '@pss/testkit';
import { ScheduleProjection } from './schedule/schedule.projection';
import { SnapshotProjection } from './snapshot/snapshot.projection';
import { REPORT_SCHEDULES, REPORT_SNAPSHOTS } from '@pss/contracts';

/** Every projection of reports, fed each of its events twice (at least once delivery): the same read model as once. */
describe('reports projections replayed twice', () => {
  it('counts SDK windows per store and hour once', async () => {
    const window = (lastEventAt: string, batches: number) => ({
      storeId: 's1',
      orgId: 'o1',
      firstEventAt: lastEventAt,
      lastEventAt,
      batches,
      observations: batches * 2,
      sessions: 1,
      pages: [{ path: '/checkout', batches }],
    });
    const events = [
      recorded('reportsdk-s1', 'SdkWindowCounted', window('2026-11-23T10:00:05.000Z', 2)),
      recorded('reportsdk-s1', 'SdkWindowCounted', window('2026-11-23T10:59:59.000Z', 3)),
      recorded('reportsdk-s1', 'SdkWindowCounted', window('2026-11-23T11:00:00.000Z', 1)),
    ];
    const twice = await replayedTwice(SdkActivityProjection, events);
    expect(twice[SDK_HOURS]).toEqual([
      expect.objectContaining({ _id: 's1|2026-11-23T10:00:00.000Z', batches: 5, observations: 10, sessions: 2 }),
      expect.objectContaining({ _id: 's1|2026-11-23T11:00:00.000Z', batches: 1 }),
    ]);
    expect(twice[SDK_STORES]).toEqual([expect.objectContaining({ _id: 's1', last_event_at: '2026-11-23T11:00:00.000Z' })]);
    expect(twice[SDK_PAGES]).toEqual([
      expect.objectContaining({ _id: 's1|2026-11-23T10:00:00.000Z|/checkout', path: '/checkout', batches: 5 }),
      expect.objectContaining({ _id: 's1|2026-11-23T11:00:00.000Z|/checkout', batches: 1 }),
    ]);
  });

  it('writes each snapshot whole, once', async () => {
    const snapshot = {
      snapshotId: 'snap-1',
      storeId: 's1',
      orgId: 'o1',
      kind: 'weekly',
      periodStart: '2026-11-16T00:00:00.000Z',
      periodEnd: '2026-11-23T00:00:00.000Z',
      locale: 'pt-BR',
      schemaVersion: 2,
      sha256: 'b'.repeat(64),
      previousSha256: 'a'.repeat(64),
      generatedBy: 'scheduler',
      hasPdf: true,
      csvTables: ['scripts', 'headers', 'alerts'],
      dataKey: 'reports/snap-1/data-b.json',
      domain: 'loja.example',
      createdAt: '2026-11-23T09:00:00.000Z',
    };
    const events = [recorded('report-s1', 'ReportSnapshotRecorded', snapshot)];
    const twice = await replayedTwice(SnapshotProjection, events);
    expect(twice[REPORT_SNAPSHOTS]).toEqual([
      {
        _id: 'snap-1',
        org_id: 'o1',
        store_id: 's1',
        kind: 'weekly',
        period_start: '2026-11-16T00:00:00.000Z',
        period_end: '2026-11-23T00:00:00.000Z',
        locale: 'pt-BR',
        schema_version: 2,
        sha256: 'b'.repeat(64),
        previous_sha256: 'a'.repeat(64),
        sequence: 1,
        generated_by: 'scheduler',
        has_pdf: true,
        csv_tables: ['scripts', 'headers', 'alerts'],
        created_at: '2026-11-23T09:00:00.000Z',
        _data_key: 'reports/snap-1/data-b.json',
        _domain: 'loja.example',
      },
    ]);
  });

  it('marks an on-demand snapshot expired, keeping its record, and knows which file is a shared body', async () => {
    const snapshot = { snapshotId: 'snap-2', storeId: 's1', orgId: 'o1', kind: 'on_demand', sha256: 'c'.repeat(64), previousSha256: null, sequence: 1, createdAt: '2026-11-23T09:00:00.000Z' };
    const body = { dataKey: `reports/bodies/${'d'.repeat(64)}.json`, bodySha256: 'd'.repeat(64) };
    const events = [
      recorded('report-s1', 'ReportSnapshotRecorded', { ...snapshot, ...body }),
      recorded('report-s1', 'ReportSnapshotExpired', { snapshotId: 'snap-2', expiredAt: '2027-03-01T00:00:00.000Z', retentionDays: 90 }),
    ];
    await expectReplayedTwice(SnapshotProjection, events, REPORT_SNAPSHOTS, [
      { _id: 'snap-2', sha256: 'c'.repeat(64), _data_key: body.dataKey, _body_sha256: 'd'.repeat(64), _expired_at: '2027-03-01T00:00:00.000Z' },
    ]);
  });

  it('keeps a schedule set, changed and deleted as of its last event, and when it was first set', async () => {
    const set = (at: string, cadence: string) => recorded('reportschedule-s1', 'ReportScheduleSet', { storeId: 's1', orgId: 'o1', cadence, locale: 'en', active: true, by: 'api:x', at });
    const events = [set('T1', 'weekly'), set('T2', 'monthly')];
    const twice = await replayedTwice(ScheduleProjection, events);
    expect(twice[REPORT_SCHEDULES]).toEqual([expect.objectContaining({ _id: 's1', cadence: 'monthly', updated_at: 'T2', _since: 'T1', _deleted: false })]);

    const deleted = [...events, recorded('reportschedule-s1', 'ReportScheduleDeleted', { storeId: 's1', orgId: 'o1', by: 'api:x', at: 'T3' })];
    expect((await project(new ScheduleProjection(), deleted, 'twice'))[REPORT_SCHEDULES]).toEqual([expect.objectContaining({ _id: 's1', _deleted: true })]);
  });
});
