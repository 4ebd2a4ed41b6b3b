import { Inject, Injectable } from '@nestjs/common';
import { SCRIPTS, type ScriptDocument } from '@pss/contracts';
import { AggregateRepository, PeriodicJob } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { scriptDecider } from '../scripts/script.decider';
import { scriptStream } from '../scripts/script.events';

export const EXPIRY_CHECK_INTERVAL_MS = 60_000;

/**
 * Returns authorizations whose `expires_at` has passed to review (`authorization_method` `expiry`). Safe with
 * several replicas running it: the script decider records an expiry only once (a second replica's attempt
 * decides nothing, or loses on the expected revision and then decides nothing).
 */
@Injectable()
export class AuthorizationExpiry extends PeriodicJob {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {
    super('AuthorizationExpiry', EXPIRY_CHECK_INTERVAL_MS);
  }

  /** Expires what is due now; answers how many authorizations it returned to review. */
  protected async once(): Promise<number> {
    const at = this.clock.now();
    const due = await this.readStore
      .collection<ScriptDocument>(SCRIPTS)
      .find({ status: 'authorized', expires_at: { $ne: null, $lte: at.toISOString() } });
    let expired = 0;
    for (const script of due) {
      const { events } = await this.aggregates.decide(scriptStream(script._id), scriptDecider, { type: 'ExpireAuthorization', at }, { actor: 'system', orgId: script.org_id });
      expired += events.length;
    }
    return expired;
  }
}
