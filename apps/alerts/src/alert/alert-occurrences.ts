import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, LruCache, type Clock } from '@pss/kernel';
import { AggregateRepository, type FoldedStates } from '@pss/platform';
import { alertDecider, placeOccurrence, type AlertState, type Occurrence } from './alert.decider';
import { alertIdFor, alertStream, SYSTEM_ACTOR } from './alert.events';

/** Fingerprints whose newest alert number this process remembers. */
const REMEMBERED_FINGERPRINTS = 10_000;
/**
 * Alerts whose state this process keeps between occurrences (each at most MAX_REMEMBERED_SESSIONS session ids):
 * an alert's stream grows by one event per occurrence, and reading it whole each time cost O(n²) for a hot one.
 */
const REMEMBERED_ALERTS = 2_000;

/**
 * Records an occurrence on the newest alert of its fingerprint: walks the fingerprint's alerts 0, 1, 2… to the
 * newest, which counts it or, resolved, hands it to the next number, which opens. Every step is a decision on
 * one alert's stream with its expected revision, so replicas recording the same fingerprint at once agree.
 */
@Injectable()
export class AlertOccurrences {
  /** Where a walk may start: alerts are never deleted, so a number once seen stays a lower bound of the newest. */
  private readonly newest = new Map<string, number>();
  /** Alerts' states: an occurrence reads only the events written since (by this or another replica). */
  private readonly folded: FoldedStates<AlertState> = new LruCache(REMEMBERED_ALERTS);

  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(occurrence: Occurrence): Promise<void> {
    const context = { actor: SYSTEM_ACTOR, orgId: occurrence.orgId };
    for (let incarnation = this.newest.get(occurrence.fingerprint) ?? 0; ; incarnation += 1) {
      const alertId = alertIdFor(occurrence.fingerprint, incarnation);
      const command = { type: 'RecordOccurrence' as const, alertId, occurrence, at: this.clock.now() };
      const { state } = await this.aggregates.decide(alertStream(alertId), alertDecider, command, context, this.folded);
      // Once recorded (or recorded before), the alert has passed the occurrence's mark: only 'next' walks on.
      if (placeOccurrence(state, occurrence) !== 'next') {
        this.remember(occurrence.fingerprint, incarnation);
        return;
      }
    }
  }

  private remember(fingerprint: string, incarnation: number): void {
    this.newest.delete(fingerprint);
    if (this.newest.size >= REMEMBERED_FINGERPRINTS) this.newest.delete(this.newest.keys().next().value!);
    this.newest.set(fingerprint, incarnation);
  }
}
