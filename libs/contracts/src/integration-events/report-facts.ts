import type { IntegrationEvent } from '../integration-event';
import { REPORT_TOPICS, type ReportReadyData, type ReportScheduleChangedData } from '../read-models/report';

/** Each reports topic with its `data`, so a consumer's `switch (fact.type)` narrows `fact.data`. */
export type ReportsFact =
  | (IntegrationEvent<ReportReadyData> & { type: typeof REPORT_TOPICS.ready })
  | (IntegrationEvent<ReportScheduleChangedData> & { type: typeof REPORT_TOPICS.scheduleChanged });

const reportsTopics = new Set<string>(Object.values(REPORT_TOPICS));

/** Narrows an integration event to one of reports' facts by its topic. */
export const isReportsFact = (event: IntegrationEvent<unknown>): event is ReportsFact => reportsTopics.has(event.type);
