import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { ALERT_OCCURRED, ALERT_STATUS_CHANGED, ALERT_TOPICS, INVENTORY_TOPICS } from '@pss/contracts';
import type { ReportFact } from '../report/report-fold';
import { ReportFacts } from './report-facts';

/**
 * Every fact of inventory and alerts that a report shows, in this service's own consumer group: not an
 * organization's creation, nor that a store's rules changed (the gateways' signal), which no report shows.
 */
export const REPORT_FACT_TOPICS: string[] = [
  ...Object.values(INVENTORY_TOPICS).filter((topic) => topic !== INVENTORY_TOPICS.organizationCreated && topic !== INVENTORY_TOPICS.ruleChanged),
  ALERT_TOPICS.created,
  ALERT_TOPICS.resolved,
  ALERT_STATUS_CHANGED,
  ALERT_OCCURRED,
];

@Controller()
export class ReportFactsConsumer {
  constructor(private readonly facts: ReportFacts) {}

  @EventPattern(REPORT_FACT_TOPICS)
  record(@Payload() fact: ReportFact): Promise<void> {
    return this.facts.record(fact);
  }
}
