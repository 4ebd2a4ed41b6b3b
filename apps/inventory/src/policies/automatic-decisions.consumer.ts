import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { INVENTORY_TOPICS, type IntegrationEvent, type ScriptDetectedFact, type ScriptHashChangedFact } from '@pss/contracts';
import { PolicyDecisions } from './policy-decisions';
import { PromptDecisions } from './prompt-decisions';

/**
 * The store's policies decide on a new script or new content behind the SDK's 202, not on its request: inventory
 * consumes its own facts (the event store is the outbox, so none is lost) and decides one script per fact, unless
 * this process decided it promptly already (PromptDecisions). At least once: a fact delivered again finds the
 * decision taken and changes nothing (the script decider says so). The decision reads the script's stream, which
 * holds the fact's event already: no wait for a read model that may lag (and no silent give-up after one).
 */
@Controller()
export class AutomaticDecisionsConsumer {
  constructor(
    private readonly policies: PolicyDecisions,
    private readonly prompt: PromptDecisions,
  ) {}

  @EventPattern([INVENTORY_TOPICS.scriptDetected, INVENTORY_TOPICS.scriptHashChanged])
  async decide(@Payload() fact: IntegrationEvent<ScriptDetectedFact | ScriptHashChangedFact>): Promise<void> {
    const { script_id: scriptId } = fact.data;
    const hash = 'new_hash' in fact.data ? fact.data.new_hash : fact.data.hash;
    if (this.prompt.takeDecided(scriptId, hash)) return;
    await this.policies.decideAutomatically(scriptId);
  }
}
