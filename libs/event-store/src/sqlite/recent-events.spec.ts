import { RecentEvents, type EventRow } from './recent-events';

const row = (position: number, stream = `script-${position}`, type = 'ScriptDetected'): EventRow => [position, `id-${position}`, stream, 0, type, '{}', '{}', '2026-11-24T00:00:00.000Z'];
const positions = (rows: EventRow[] | undefined) => rows?.map(([position]) => position);

describe('RecentEvents', () => {
  it('answers a range it holds, filtered and limited, as the file would', () => {
    const recent = new RecentEvents(100);
    recent.add([row(1), row(2, 'store-1', 'StoreCreated'), row(3), row(4, 'store-1', 'StoreRenamed')]);
    expect(positions(recent.read(0, 4, undefined, -1))).toEqual([1, 2, 3, 4]);
    expect(positions(recent.read(1, 4, { streamPrefixes: ['store-'] }, -1))).toEqual([2, 4]);
    expect(positions(recent.read(0, 4, { eventTypes: ['ScriptDetected'] }, 1))).toEqual([1]);
    expect(positions(recent.read(0, 3, { streamPrefixes: [] }, -1))).toEqual([]);
    expect(positions(recent.read(4, 4, undefined, -1))).toEqual([]);
  });

  it('declines a range reaching past what it holds', () => {
    const recent = new RecentEvents(100);
    expect(recent.read(0, 0, undefined, -1)).toEqual([]);
    recent.add([row(1), row(2)]);
    expect(recent.read(0, 3, undefined, -1)).toBeUndefined();
  });

  it("starts over after a gap (another process's appends), so a range across it is read from the file", () => {
    const recent = new RecentEvents(100);
    recent.add([row(1), row(2)]);
    recent.add([row(5), row(6)]);
    expect(recent.read(2, 6, undefined, -1)).toBeUndefined();
    expect(recent.read(3, 6, undefined, -1)).toBeUndefined();
    expect(positions(recent.read(4, 6, undefined, -1))).toEqual([5, 6]);
  });

  it('holds at most its capacity: older ranges are read from the file', () => {
    const recent = new RecentEvents(3);
    for (let position = 1; position <= 10; position += 1) recent.add([row(position)]);
    expect(recent.end).toBe(10);
    expect(recent.read(6, 10, undefined, -1)).toBeUndefined();
    expect(positions(recent.read(7, 10, undefined, -1))).toEqual([8, 9, 10]);
  });
});
