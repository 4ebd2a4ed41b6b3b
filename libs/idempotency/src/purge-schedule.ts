/** How often claims sweep out expired records. Expired records are ignored anyway: this only bounds storage. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Expired records are deleted by the first claim after each interval rather than by a timer: nothing runs
 * after the application closes its database, and tests move the schedule with their clock.
 */
export class PurgeSchedule {
  private nextAt = 0;

  due(now: number): boolean {
    if (now < this.nextAt) return false;
    this.nextAt = now + PURGE_INTERVAL_MS;
    return true;
  }
}
