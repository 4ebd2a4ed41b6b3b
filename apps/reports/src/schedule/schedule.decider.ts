import type { ReportCadence, ReportLocale } from '@pss/contracts';
import { notFound, type Decider, type DomainEvent } from '@pss/kernel';

export interface ScheduleSettings {
  cadence: ReportCadence;
  locale: ReportLocale;
  active: boolean;
}

export type ScheduleEvent =
  | DomainEvent<'ReportScheduleSet', ScheduleSettings & { storeId: string; orgId: string; by: string; at: string }>
  | DomainEvent<'ReportScheduleDeleted', { storeId: string; orgId: string; by: string; at: string }>;

export type ScheduleCommand =
  | ({ type: 'SetSchedule'; storeId: string; orgId: string; by: string; at: string } & ScheduleSettings)
  | { type: 'DeleteSchedule'; storeId: string; orgId: string; by: string; at: string };

export interface ScheduleState {
  settings: ScheduleSettings | null;
  /** When the current schedule was first set: scheduled runs due before it are not caught up. */
  since: string | null;
}

/** A store's report schedule (one per store, stream `reportschedule-<store id>`). */
export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  initialState: () => ({ settings: null, since: null }),
  decide: (command, state) => {
    const { storeId, orgId, by, at } = command;
    if (command.type === 'DeleteSchedule') {
      if (!state.settings) throw notFound('Report schedule');
      return [{ type: 'ReportScheduleDeleted', data: { storeId, orgId, by, at } }];
    }
    const { cadence, locale, active } = command;
    return [{ type: 'ReportScheduleSet', data: { storeId, orgId, cadence, locale, active, by, at } }];
  },
  evolve: (state, event) => {
    if (event.type === 'ReportScheduleDeleted') return { settings: null, since: null };
    const { cadence, locale, active, at } = event.data;
    return { settings: { cadence, locale, active }, since: state.since ?? at };
  },
};

export const scheduleStream = (storeId: string): string => `reportschedule-${storeId}`;
