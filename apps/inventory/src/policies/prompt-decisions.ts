import { Inject, Injectable, Logger } from '@nestjs/common';
import { LruCache } from '@pss/kernel';
import { PolicyDecisions } from './policy-decisions';

/** Decisions this process remembers having taken, until their fact arrives: far more than are ever in flight. */
export const PROMPT_DECISIONS_REMEMBERED = 50_000;

/**
 * The policies decide on a new script, or new content, in the process that recorded it, as soon as it is
 * recorded: behind the SDK's answer, side by side for a batch, so their appends share one commit. The fact's
 * consumer (AutomaticDecisionsConsumer) stays the durable path: it decides whatever this did not (a crash in
 * between, an error, another replica), and skips what it remembers deciding. Waiting for the fact alone, each
 * decision queued behind its store's earlier facts, one commit each: some 200–700 a second at most.
 */
@Injectable()
export class PromptDecisions {
  private readonly logger = new Logger(PromptDecisions.name);
  private readonly decided = new LruCache<string, true>(PROMPT_DECISIONS_REMEMBERED);

  constructor(@Inject(PolicyDecisions) private readonly policies: Pick<PolicyDecisions, 'decideAutomatically'>) {}

  /** Starts the decision on this content of the script, without waiting for it; an error leaves it to the consumer. */
  decide(scriptId: string, hash: string | null): void {
    const key = keyOf(scriptId, hash);
    // The same content may come back (A, B, A): what was decided on it before says nothing of this time.
    this.decided.delete(key);
    this.policies.decideAutomatically(scriptId).then(
      // Only a decision made counts: one that found nothing to look at is the consumer's to make.
      (decided) => decided && this.decided.set(key, true),
      (error: Error) => this.logger.warn(`script ${scriptId} left to the policies' consumer: ${error.message}`),
    );
  }

  /** Whether this process decided on this content already; forgets it, as the fact comes once (or again, rarely). */
  takeDecided(scriptId: string, hash: string | null): boolean {
    const key = keyOf(scriptId, hash);
    const decided = this.decided.get(key) === true;
    this.decided.delete(key);
    return decided;
  }
}

const keyOf = (scriptId: string, hash: string | null): string => `${scriptId} ${hash ?? ''}`;
