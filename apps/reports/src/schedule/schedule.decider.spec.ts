import { deciderSpec } from '@pss/testkit';
import { scheduleDecider, type ScheduleEvent } from './schedule.decider';

const base = { storeId: 'store-1', orgId: 'org-1', by: 'api:pss_live_abcdefghijklmnopqrstuvwx' };
const set = (at: string, cadence: 'weekly' | 'monthly' = 'weekly'): ScheduleEvent => ({
  type: 'ReportScheduleSet',
  data: { ...base, cadence, locale: 'pt-BR', active: true, at },
});

describe('report schedule', () => {
  const spec = deciderSpec(scheduleDecider);

  it('sets a schedule', () => {
    spec.given([]).when({ type: 'SetSchedule', ...base, cadence: 'weekly', locale: 'pt-BR', active: true, at: 'T1' }).then([set('T1')]);
  });

  it('changes it', () => {
    spec
      .given([set('T1')])
      .when({ type: 'SetSchedule', ...base, cadence: 'monthly', locale: 'en', active: false, at: 'T2' })
      .then([{ type: 'ReportScheduleSet', data: { ...base, cadence: 'monthly', locale: 'en', active: false, at: 'T2' } }]);
  });

  it('deletes it', () => {
    spec.given([set('T1')]).when({ type: 'DeleteSchedule', ...base, at: 'T2' }).then([{ type: 'ReportScheduleDeleted', data: { ...base, at: 'T2' } }]);
  });

  it('refuses to delete a schedule that does not exist (404)', () => {
    spec.given([]).when({ type: 'DeleteSchedule', ...base, at: 'T2' }).thenThrows('not_found');
    spec.given([set('T1'), { type: 'ReportScheduleDeleted', data: { ...base, at: 'T2' } }]).when({ type: 'DeleteSchedule', ...base, at: 'T3' }).thenThrows('not_found');
  });

  it('remembers when the schedule was first set (catch-up starts there)', () => {
    const state = [set('T1'), set('T2', 'monthly')].reduce(scheduleDecider.evolve, scheduleDecider.initialState());
    expect(state).toEqual({ settings: { cadence: 'monthly', locale: 'pt-BR', active: true }, since: 'T1' });
  });
});
