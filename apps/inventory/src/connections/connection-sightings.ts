import type { ConnectionObservation } from '@pss/contracts';
import type { AggregateRepository, CommandContext } from '@pss/platform';
import { scriptKey } from '@pss/sdk-contract';
import { scriptIdFor } from '../scripts/script-identity';
import { connectionDecider } from './connection.decider';
import { connectionIdFor, connectionStream } from './connection.events';
import { pageViewOf, PageViewReads, type ReadChainLink } from './page-view-reads';

/** The batch's page view, as SDK ingestion knows it. */
export interface SeenOn {
  storeId: string;
  orgId: string;
  pageUrl: string;
  sessionId: string;
}

/**
 * A batch's connections into the inventory, each on its origin's stream, with the unauthorized card-field read of
 * the same page view when there was one (this batch's reads are remembered first, then earlier batches' count).
 */
export class ConnectionSightings {
  private readonly reads = new PageViewReads();

  constructor(private readonly aggregates: AggregateRepository) {}

  rememberRead(seen: SeenOn, field: string, chain: ReadChainLink[], at: Date): void {
    this.reads.remember(pageViewOf(seen.storeId, seen.sessionId, seen.pageUrl), field, chain, at.getTime());
  }

  async record(connections: ConnectionObservation[], seen: SeenOn, context: CommandContext, at: Date): Promise<void> {
    if (connections.length === 0) return;
    const { storeId, orgId, pageUrl, sessionId } = seen;
    const page = new URL(pageUrl).pathname;
    const unauthorizedRead = this.reads.of(pageViewOf(storeId, sessionId, pageUrl), at.getTime());
    // Nothing reads a connection back in this request: no wait for the read model.
    const quiet = { ...context, readYourWrites: false };
    await Promise.all(
      connections.map(({ origin, via, initiator }) => {
        const connectionId = connectionIdFor(storeId, origin);
        const by = initiator === undefined ? null : { scriptId: scriptIdFor(storeId, scriptKey({ inline: false, src: initiator })), src: initiator };
        const command = { connectionId, storeId, orgId, origin, via, page, pageUrl, sessionId, initiator: by, unauthorizedRead, at };
        return this.aggregates.decide(connectionStream(connectionId), connectionDecider, command, quiet);
      }),
    );
  }
}
