import { chainBreaks, type ChainLink } from './evidence-chain';

const link = (sequence: number, sha256: string, previousSha256: string | null, stored: string | null = sha256, expired = false): ChainLink => ({
  snapshotId: `s${sequence}`,
  sequence,
  sha256,
  previousSha256,
  storedSha256: stored,
  expired,
});

describe('a store\'s evidence chain, checked as docs/reports.md says', () => {
  it('finds no break in a linear chain whose data is intact', () => {
    expect(chainBreaks([link(1, 'aa', null), link(2, 'bb', 'aa'), link(3, 'cc', 'bb')])).toEqual([]);
    expect(chainBreaks([])).toEqual([]);
  });

  it('names a snapshot that links to another than the one before it', () => {
    expect(chainBreaks([link(1, 'aa', null), link(2, 'bb', 'aa'), link(3, 'cc', 'aa')])).toEqual([
      { sequence: 3, snapshot_id: 's3', problem: 'previous_sha256 is aa, expected bb' },
    ]);
  });

  it('names a gap in the places (a snapshot removed) and a first snapshot that links to something', () => {
    expect(chainBreaks([link(1, 'aa', 'zz'), link(3, 'cc', 'aa')])).toEqual([
      { sequence: 1, snapshot_id: 's1', problem: 'previous_sha256 is zz, expected null' },
      { sequence: 3, snapshot_id: 's3', problem: 'is at place 3 on the chain, expected 2' },
    ]);
  });

  it('names data altered or gone from the file store', () => {
    expect(chainBreaks([link(1, 'aa', null, 'ff'), link(2, 'bb', 'aa', null)])).toEqual([
      { sequence: 1, snapshot_id: 's1', problem: 'its stored data hashes to ff, not its sha256' },
      { sequence: 2, snapshot_id: 's2', problem: 'its data is missing from the file store' },
    ]);
  });

  it('takes an expired snapshot\'s data gone as retention, still checking its links and any data left', () => {
    expect(chainBreaks([link(1, 'aa', null, null, true), link(2, 'bb', 'aa', 'bb', true), link(3, 'cc', 'bb', 'ff', true), link(4, 'dd', 'zz', null, true)])).toEqual([
      { sequence: 3, snapshot_id: 's3', problem: 'its stored data hashes to ff, not its sha256' },
      { sequence: 4, snapshot_id: 's4', problem: 'previous_sha256 is zz, expected cc' },
    ]);
  });
});
