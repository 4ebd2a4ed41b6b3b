import { auditLogFilterOf, auditLogQueryString, auditLogSearchOf, dayStart } from './audit-log-filter';

describe('the audit log page filter', () => {
  it("turns days in the organization's zone into the instants they start, the `to` day included", () => {
    const search = auditLogSearchOf({ actor: ' user:me@shop.example ', action: 'channel', from: '2026-11-01', to: '2026-11-03' });
    expect(auditLogFilterOf(search, 'America/Sao_Paulo')).toEqual({
      filter: { actor: 'user:me@shop.example', action: 'channel', from: '2026-11-01T03:00:00.000Z', to: '2026-11-04T03:00:00.000Z' },
      invalid: [],
    });
  });

  it('leaves out what was not typed', () => {
    expect(auditLogFilterOf(auditLogSearchOf({}), 'UTC')).toEqual({ filter: { actor: undefined, action: undefined, from: undefined, to: undefined }, invalid: [] });
  });

  it('names a day that is not one, and a `to` before `from`', () => {
    expect(auditLogFilterOf(auditLogSearchOf({ from: '2026-02-30', to: 'yesterday' }), 'UTC').invalid).toEqual(['from', 'to']);
    expect(auditLogFilterOf(auditLogSearchOf({ from: '2026-11-03', to: '2026-11-02' }), 'UTC').invalid).toEqual(['to']);
    expect(auditLogFilterOf(auditLogSearchOf({ from: '2026-11-03', to: '2026-11-03' }), 'UTC').invalid).toEqual([]);
  });

  it('finds where a day starts across a daylight saving change', () => {
    // New York springs forward on 2026-03-08 at 02:00: that day starts at 05:00 UTC, the next at 04:00 UTC.
    expect(dayStart('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(dayStart('2026-03-08', 'America/New_York', 1)).toBe('2026-03-09T04:00:00.000Z');
    expect(dayStart('2026-12-31', 'Asia/Kolkata', 1)).toBe('2026-12-31T18:30:00.000Z');
  });

  it('writes the search back as the query of the next page and the CSV, empty fields left out', () => {
    const search = auditLogSearchOf({ actor: 'user:a+b@shop.example', from: '2026-11-01' });
    expect(auditLogQueryString(search, 'abc')).toBe('?actor=user%3Aa%2Bb%40shop.example&from=2026-11-01&cursor=abc');
    expect(auditLogQueryString(auditLogSearchOf({}))).toBe('');
  });
});
