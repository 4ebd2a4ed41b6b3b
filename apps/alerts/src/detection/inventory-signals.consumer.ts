import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { IntegrationEvent } from '@pss/contracts';
import { AlertOccurrences } from '../alert/alert-occurrences';
import { detectAlerts, DETECTION_TOPICS } from './detect-alerts';

/**
 * Inventory's facts that raise alerts, in this service's own consumer group. At least once: a fact delivered
 * again finds its alert past the fact's position and changes nothing.
 */
@Controller()
export class InventorySignalsConsumer {
  constructor(private readonly occurrences: AlertOccurrences) {}

  @EventPattern(DETECTION_TOPICS)
  async detect(@Payload() event: IntegrationEvent<unknown>): Promise<void> {
    for (const occurrence of detectAlerts(event)) await this.occurrences.record(occurrence);
  }
}
