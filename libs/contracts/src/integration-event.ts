/**
 * The versioned envelope of every integration event on the bus. Other teams subscribe to these topics, so the
 * envelope only ever grows; a breaking change of `data` is a new `version` on the same topic.
 * Every topic and its `data` is listed in docs/events.md.
 */
export interface IntegrationEvent<Data = Record<string, unknown>> {
  /** `evt_` + the id of the domain event it comes from: stable, so consumers deduplicate by it. */
  id: string;
  /** Dotted topic name, e.g. `inventory.store.created`. */
  type: string;
  version: number;
  /** The service that owns the fact. */
  source: string;
  org_id: string | null;
  store_id: string | null;
  occurred_at: string;
  correlation_id: string | null;
  /** Global position of the domain event; orders events of one source. */
  position: number;
  data: Data;
}

export const integrationEventId = (domainEventId: string): string => `evt_${domainEventId.replace(/-/g, '')}`;
