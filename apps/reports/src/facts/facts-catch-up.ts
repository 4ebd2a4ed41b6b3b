import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@pss/kernel';
import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { PlatformLifecycle } from '@pss/platform';
import { ProjectionRunner } from '@pss/projections';
import { sdkWindowsStream, type SdkWindowEvent } from './report-facts.events';

/** The integration sources of REPORT_FACT_TOPICS: inventory's facts and alerts'. */
export const FACT_SOURCES = ['inventory', 'alerts'] as const;
/** Building a year of a large store takes about a second (benchmark 6): the wait leaves it this much of the deadline. */
const BUILD_RESERVE_MS = 3_000;
const POLL_MS = 20;
/** What a 503 asks the client to wait: the facts were seconds behind when it was sent. */
export const FACTS_BEHIND_RETRY_AFTER_SECONDS = 5;

/** Where the sources stand: how far each has reached the bus, and what the event store has committed. */
export interface SourcePositions {
  committed(): Promise<number>;
  published(source: string): Promise<number>;
}

/**
 * A snapshot is immutable and chained: one built while reports' own history lags behind what inventory and
 * alerts committed would misstate the inventory for good. So a build first waits until every fact committed
 * before the request has reached reports' history (and its SDK read models), within the command's deadline;
 * past it the request fails with a retryable 503, never a short snapshot.
 */
@Injectable()
export class FactsCatchUp {
  private readonly positions: SourcePositions;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    lifecycle: PlatformLifecycle,
    private readonly projections: ProjectionRunner,
  ) {
    this.positions = { committed: () => eventStore.headPosition(), published: (source) => lifecycle.publishedPosition(source) };
  }

  /** `deadline`: the command's (ISO 8601); without one (the scheduler, the CLI) the wait is the default budget. */
  async untilCommitted(storeId: string, deadline: string | undefined): Promise<void> {
    const until = waitEnd(deadline, Date.now());
    await awaitSources(this.positions, until);
    // SDK hours and pages are read models of reports' own SdkWindowCounted events, appended as the facts came.
    const sdkWindows: Pick<SdkWindowEvent, 'type'> & { stream: string } = { stream: sdkWindowsStream(storeId), type: 'SdkWindowCounted' };
    const head = await this.eventStore.headPosition();
    if (!(await this.projections.waitFor(head, [sdkWindows], Math.max(0, until - Date.now())))) throw factsBehind();
  }
}

/** Resolves once every fact source has published what was committed when it was called; 503 past `until`. */
export async function awaitSources(positions: SourcePositions, until: number): Promise<void> {
  const committed = await positions.committed();
  for (;;) {
    const published = await Promise.all(FACT_SOURCES.map((source) => positions.published(source)));
    if (published.every((position) => position >= committed)) return;
    if (Date.now() >= until) throw factsBehind();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The wait ends early enough to build within the deadline: the reserve, or half of what is left when less. */
export function waitEnd(deadline: string | undefined, now: number): number {
  const end = deadline ? Date.parse(deadline) : now + DEFAULT_WAIT_MS;
  const left = Math.max(0, end - now);
  return now + Math.max(left - BUILD_RESERVE_MS, left / 2);
}

const DEFAULT_WAIT_MS = 30_000;

const factsBehind = (): DomainError =>
  new DomainError(
    'service_unavailable',
    "The report's facts are still arriving from inventory and alerts; retry shortly (a report now would miss some of them)",
    undefined,
    FACTS_BEHIND_RETRY_AFTER_SECONDS,
  );
