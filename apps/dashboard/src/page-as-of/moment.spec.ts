import { momentIn, momentSearchOf, wallClockOf } from './moment';

describe('a moment on the store’s clock', () => {
  it('turns a day and time in the store’s zone into the instant', () => {
    expect(momentIn('2026-11-20', '09:30', 'America/Sao_Paulo')).toEqual({ at: '2026-11-20T12:30:00.000Z' });
    expect(momentIn('2026-11-20', '09:30:15', 'UTC')).toEqual({ at: '2026-11-20T09:30:15.000Z' });
    expect(momentIn('2026-07-01', '12:00', 'Europe/Lisbon')).toEqual({ at: '2026-07-01T11:00:00.000Z' });
    expect(momentIn('2026-01-01', '12:00', 'Europe/Lisbon')).toEqual({ at: '2026-01-01T12:00:00.000Z' });
  });

  it('names the fields that are not a day or a time', () => {
    expect(momentIn('2026-02-30', '09:30', 'UTC')).toEqual({ invalid: ['date'] });
    expect(momentIn('2026-11-20', '24:00', 'UTC')).toEqual({ invalid: ['time'] });
    expect(momentIn('2026-11-20', '9h30', 'UTC')).toEqual({ invalid: ['time'] });
    expect(momentIn('', '', 'UTC')).toEqual({ invalid: ['date', 'time'] });
  });

  it('shows an instant back on the store’s clock, the inverse of momentIn', () => {
    expect(wallClockOf(new Date('2026-11-20T12:30:40.000Z'), 'America/Sao_Paulo')).toEqual({ date: '2026-11-20', time: '09:30' });
    const { date, time } = wallClockOf(new Date('2026-03-29T10:05:00.000Z'), 'Europe/Lisbon');
    expect(momentIn(date, time, 'Europe/Lisbon')).toEqual({ at: '2026-03-29T10:05:00.000Z' });
    expect(momentSearchOf({ store_id: ' s ', date: '2026-11-20' })).toEqual({ store_id: 's', page_id: '', date: '2026-11-20', time: '' });
  });
});
