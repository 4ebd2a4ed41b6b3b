import type { ReportCadence } from './report';

/** Scheduled reports are made at 09:00 UTC: weekly on Mondays, monthly on the 1st. */
export const SCHEDULE_HOUR_UTC = 9;
/** Runs missed while the service was down are made up for this far back. */
export const CATCH_UP_MS = 35 * 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DueRun {
  cadence: ReportCadence;
  /** When it was due (09:00 UTC). */
  dueAt: string;
  periodStart: string;
  periodEnd: string;
}

/**
 * The runs of a cadence due in `(from, to]`, oldest first. Weekly: due Monday 09:00 UTC, covering the seven days
 * before that Monday (Monday 00:00 UTC to Monday 00:00 UTC). Monthly: due the 1st at 09:00 UTC, covering the
 * previous calendar month (UTC).
 */
export function dueRuns(cadence: ReportCadence, from: Date, to: Date): DueRun[] {
  const runs: DueRun[] = [];
  for (let periodEnd = firstBoundaryAfter(cadence, from.getTime() - SCHEDULE_HOUR_UTC * 3600_000); ; periodEnd = nextBoundary(cadence, periodEnd)) {
    const dueAt = periodEnd + SCHEDULE_HOUR_UTC * 3600_000;
    if (dueAt > to.getTime()) return runs;
    if (dueAt > from.getTime()) {
      const periodStart = previousBoundary(cadence, periodEnd);
      runs.push({ cadence, dueAt: iso(dueAt), periodStart: iso(periodStart), periodEnd: iso(periodEnd) });
    }
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The first Monday 00:00 UTC (weekly) or 1st 00:00 UTC (monthly) at or after `ms`. */
function firstBoundaryAfter(cadence: ReportCadence, ms: number): number {
  const day = new Date(ms);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  if (cadence === 'weekly') {
    const daysToMonday = (8 - new Date(midnight).getUTCDay()) % 7;
    const monday = midnight + daysToMonday * DAY_MS;
    return monday >= ms ? monday : monday + 7 * DAY_MS;
  }
  const first = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
  return first >= ms ? first : Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
}

function nextBoundary(cadence: ReportCadence, boundary: number): number {
  if (cadence === 'weekly') return boundary + 7 * DAY_MS;
  const day = new Date(boundary);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
}

function previousBoundary(cadence: ReportCadence, boundary: number): number {
  if (cadence === 'weekly') return boundary - 7 * DAY_MS;
  const day = new Date(boundary);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() - 1, 1);
}

/** The next scheduled run after `now` (a month and a day ahead holds one of either cadence). */
export const nextRun = (cadence: ReportCadence, now: Date): DueRun => dueRuns(cadence, now, new Date(now.getTime() + 32 * DAY_MS))[0];
