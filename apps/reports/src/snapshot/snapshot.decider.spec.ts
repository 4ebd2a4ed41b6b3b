import { deciderSpec } from '@pss/testkit';
import { snapshotDecider, type RecordedSnapshot, type SnapshotEvent } from './snapshot.decider';

const snapshot = (snapshotId: string, sha256: string): RecordedSnapshot => ({
  snapshotId,
  storeId: 'store-1',
  orgId: 'org-1',
  kind: 'weekly',
  periodStart: '2026-11-16T00:00:00.000Z',
  periodEnd: '2026-11-23T00:00:00.000Z',
  locale: 'pt-BR',
  schemaVersion: 2,
  sha256,
  generatedBy: 'scheduler',
  hasPdf: true,
  csvTables: ['scripts', 'headers', 'alerts'],
  dataKey: `reports/${snapshotId}/data-${sha256}.json`,
  domain: 'loja.example',
  createdAt: '2026-11-23T09:00:00.000Z',
});

const recorded = (snapshotId: string, sha256: string, previousSha256: string | null, sequence: number, made: Partial<RecordedSnapshot> = {}): SnapshotEvent => ({
  type: 'ReportSnapshotRecorded',
  data: { ...snapshot(snapshotId, sha256), previousSha256, sequence, ...made },
});
const onDemand = (createdAt: string) => ({ kind: 'on_demand' as const, createdAt });
const expired = (snapshotId: string): SnapshotEvent => ({
  type: 'ReportSnapshotExpired',
  data: { snapshotId, expiredAt: '2027-03-01T00:00:00.000Z', retentionDays: 90 },
});
const expire = { type: 'ExpireOnDemand' as const, createdBefore: '2026-12-01T00:00:00.000Z', at: '2027-03-01T00:00:00.000Z', retentionDays: 90 };

describe('evidence chain of a store (report snapshots)', () => {
  const spec = deciderSpec(snapshotDecider);

  it('records the first snapshot with no previous sha256, first on the chain', () => {
    spec.given([]).when({ type: 'RecordSnapshot', snapshot: snapshot('s1', 'aa') }).then([recorded('s1', 'aa', null, 1)]);
  });

  it('links each snapshot to the sha256 of the one before, at the next place on the chain', () => {
    spec
      .given([recorded('s1', 'aa', null, 1), recorded('s2', 'bb', 'aa', 2)])
      .when({ type: 'RecordSnapshot', snapshot: snapshot('s3', 'cc') })
      .then([recorded('s3', 'cc', 'bb', 3)]);
  });

  it('records a snapshot id once (a scheduled run made on two replicas)', () => {
    spec.given([recorded('s1', 'aa', null, 1)]).when({ type: 'RecordSnapshot', snapshot: snapshot('s1', 'other') }).thenNothingHappens();
  });

  it('expires the on-demand snapshots made before the cut-off, not the scheduled ones nor the newer', () => {
    spec
      .given([
        recorded('s1', 'aa', null, 1, onDemand('2026-11-20T10:00:00.000Z')),
        recorded('s2', 'bb', 'aa', 2),
        recorded('s3', 'cc', 'bb', 3, onDemand('2026-12-01T00:00:00.000Z')),
      ])
      .when(expire)
      .then([expired('s1')]);
  });

  it('expires a snapshot once', () => {
    spec.given([recorded('s1', 'aa', null, 1, onDemand('2026-11-20T10:00:00.000Z')), expired('s1')]).when(expire).thenNothingHappens();
  });

  it('keeps an expired snapshot\'s place and hash: the next one links to the head and takes the next place', () => {
    spec
      .given([recorded('s1', 'aa', null, 1, onDemand('2026-11-20T10:00:00.000Z')), expired('s1')])
      .when({ type: 'RecordSnapshot', snapshot: snapshot('s2', 'bb') })
      .then([recorded('s2', 'bb', 'aa', 2)]);
  });
});
