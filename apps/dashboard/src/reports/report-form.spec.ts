import { defaultReportForm, reportRequestOf, scheduleOf } from './report-form';

const now = new Date('2026-11-27T15:00:00.000Z');
const zone = 'America/Sao_Paulo';

describe('the report form', () => {
  it('offers the 7 days up to today on the store’s clock', () => {
    expect(defaultReportForm(now, zone, 'en')).toEqual({ period_start: '2026-11-21', period_end: '2026-11-27', locale: 'en' });
  });

  it('means whole days on the store’s clock, ending no later than now', () => {
    expect(reportRequestOf({ period_start: '2026-11-01', period_end: '2026-11-02', locale: 'pt-BR' }, zone, now)).toEqual({
      request: { periodStart: '2026-11-01T03:00:00.000Z', periodEnd: '2026-11-03T03:00:00.000Z', locale: 'pt-BR' },
    });
    expect(reportRequestOf({ period_start: '2026-11-21', period_end: '2026-11-27', locale: 'en' }, zone, now)).toEqual({
      request: { periodStart: '2026-11-21T03:00:00.000Z', periodEnd: now.toISOString(), locale: 'en' },
    });
  });

  it('says which field is wrong, in the API’s words for the period’s rules', () => {
    expect(reportRequestOf({ period_start: '2026-13-01', period_end: 'x', locale: 'fr' }, zone, now)).toEqual({
      errors: { period_start: 'period_start must be a day', period_end: 'period_end must be a day', locale: 'locale must be one of: pt-BR, en' },
    });
    expect(reportRequestOf({ period_start: '2026-11-05', period_end: '2026-11-01', locale: 'en' }, zone, now)).toEqual({ errors: { period_start: 'period_start must not be after period_end' } });
    expect(reportRequestOf({ period_start: '2024-01-01', period_end: '2026-11-01', locale: 'en' }, zone, now)).toEqual({ errors: { period_end: 'the period may span at most 366 days' } });
  });

  it('takes a schedule with the API’s cadences and languages only', () => {
    expect(scheduleOf({ cadence: 'monthly', locale: 'en', active: 'on' })).toEqual({ cadence: 'monthly', locale: 'en', active: true });
    expect(scheduleOf({ cadence: 'weekly', locale: 'pt-BR' })).toEqual({ cadence: 'weekly', locale: 'pt-BR', active: false });
    expect(scheduleOf({ cadence: 'daily', locale: 'en' })).toBeUndefined();
  });
});
