import { Inject, Injectable } from '@nestjs/common';
import { INVENTORY_TOPICS, type InventoryFactOf } from '@pss/contracts';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '@pss/event-store';
import type { ReportFact } from '../report/report-fold';
import { orgFactsStream, sdkWindowStream, storeFactsStream, type ReportFactEvent, type SdkWindowEvent } from './report-facts.events';

export const REPORTS_ACTOR = 'reports';
/** Facts read from the event store per call while a report is folded. */
const PAGE = 2000;

/**
 * Reports' own history of what inventory and alerts published. At least once: a fact recorded twice is folded
 * once (by its id); an SDK window is counted once by its fact's id (sdkWindowStream).
 */
@Injectable()
export class ReportFacts {
  constructor(@Inject(EVENT_STORE) private readonly eventStore: EventStore) {}

  async record(fact: ReportFact): Promise<void> {
    if (fact.type === INVENTORY_TOPICS.sdkActivity) return this.countSdkWindow(fact);
    // Policies may be organization-wide, and a person's resolve of an alert names no store: the organization's stream.
    const stream = fact.store_id && !fact.type.startsWith('inventory.policy.') ? storeFactsStream(fact.store_id) : fact.org_id && orgFactsStream(fact.org_id);
    if (!stream) return;
    const recorded: ReportFactEvent = { type: 'ReportFactRecorded', data: { fact } };
    await this.eventStore.append(stream, [{ ...recorded, metadata: { actor: REPORTS_ACTOR, ...(fact.org_id ? { orgId: fact.org_id } : {}) } }]);
  }

  /** The organization's facts (policies) then the store's, oldest first, a page at a time. */
  async *factsOf(storeId: string, orgId: string): AsyncIterable<ReportFact[]> {
    for (const stream of [orgFactsStream(orgId), storeFactsStream(storeId)]) {
      for (let from = 0; ; from += PAGE) {
        const page = await this.eventStore.readStream(stream, { fromRevision: from, maxCount: PAGE });
        if (page.length) yield page.map(factOf);
        if (page.length < PAGE) break;
      }
    }
  }

  private async countSdkWindow(fact: InventoryFactOf<typeof INVENTORY_TOPICS.sdkActivity>): Promise<void> {
    const { data } = fact;
    if (!fact.org_id) return;
    const event: SdkWindowEvent = {
      type: 'SdkWindowCounted',
      data: {
        storeId: data.store_id,
        orgId: fact.org_id,
        firstEventAt: data.first_event_at,
        lastEventAt: data.last_event_at,
        batches: data.batches,
        observations: data.observations,
        sessions: data.sessions ?? 0,
        clients: data.clients ?? 0,
        pages: data.pages ?? [],
      },
    };
    try {
      await this.eventStore.append(sdkWindowStream(data.store_id, fact.id), [{ ...event, metadata: { actor: REPORTS_ACTOR, orgId: fact.org_id } }], { expectedRevision: 'no_stream' });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}

/** The event store hands back what was appended: the recorded fact. */
const factOf = (recorded: RecordedEvent): ReportFact => (recorded.data as ReportFactEvent['data']).fact;
