import { Inject, Injectable } from '@nestjs/common';
import {
  REPORT_CSV_TABLES,
  REPORT_SNAPSHOTS,
  reportBodyKey,
  reportBodyOf,
  reportDataJson,
  type ReportKind,
  type ReportLocale,
  type ReportSnapshotDocument,
} from '@pss/contracts';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@pss/event-store';
import { FILE_STORE, type FileStore } from '@pss/files';
import { CLOCK, uuidv7, type Clock } from '@pss/kernel';
import { AggregateRepository } from '@pss/platform';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { canonicalJsonInSlices, REPORT_SCHEMA_VERSION, sha256Hex, type ReportData } from '@pss/report-files';
import { FactsCatchUp } from '../facts/facts-catch-up';
import { ReportFacts } from '../facts/report-facts';
import { SDK_HOURS, SDK_PAGES, type SdkHourDocument, type SdkPageDocument } from '../facts/sdk-activity.projection';
import { buildReport, HOUR_MS } from '../report/build-report';
import { evidenceChainStream, snapshotDecider, type SnapshotEvent, type SnapshotRecorded } from './snapshot.decider';
import { snapshotDocument } from './snapshot.projection';

export type SnapshotDocument = ReportSnapshotDocument;

export interface SnapshotOrder {
  orgId: string;
  storeId: string;
  kind: ReportKind;
  periodStart: string;
  periodEnd: string;
  locale: ReportLocale;
  generatedBy: string;
  /** Given for scheduled runs (derived from the run); a new UUID v7 otherwise. */
  snapshotId?: string;
  /** The command's deadline, when a caller waits for the snapshot (ISO 8601). */
  deadline?: string;
}

/**
 * Makes report snapshots: folds the store's facts as of period_end, hashes the canonical JSON of the data,
 * stores its body in the file store (shared with equal reports), then records the snapshot on the store's evidence chain.
 */
@Injectable()
export class ReportGenerator {
  constructor(
    private readonly facts: ReportFacts,
    private readonly catchUp: FactsCatchUp,
    private readonly aggregates: AggregateRepository,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(FILE_STORE) private readonly files: FileStore,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The newest snapshot of exactly this period (and locale) whose data is kept, if any. */
  async newestOf(orgId: string, storeId: string, periodStart: string, periodEnd: string, locale: ReportLocale): Promise<SnapshotDocument | null> {
    // Made once the period was over: one made during it would stand for facts still to come (ISO strings compare in order).
    const [newest] = await this.snapshots.find(
      { org_id: orgId, store_id: storeId, period_start: periodStart, period_end: periodEnd, locale, created_at: { $gte: periodEnd }, _expired_at: { $exists: false } },
      { sort: { created_at: -1, _id: -1 }, limit: 1 },
    );
    return newest ?? null;
  }

  async generate(order: SnapshotOrder): Promise<SnapshotDocument> {
    await this.catchUp.untilCommitted(order.storeId, order.deadline);
    const now = this.clock.now();
    const snapshotId = order.snapshotId ?? uuidv7(now.getTime());
    const createdAt = now.toISOString();
    const data = await this.data(order, snapshotId, createdAt);
    const body = await canonicalJsonInSlices({ ...reportBodyOf(data) });
    const bodySha256 = sha256Hex(body);
    // Hashed as served: the whole data, put back together the way every reader does.
    const sha256 = sha256Hex(await reportDataJson(body, { report_id: snapshotId, generated_at: createdAt }));
    const dataKey = reportBodyKey(bodySha256);
    await this.keepBody(dataKey, body);
    const snapshot = {
      snapshotId,
      storeId: order.storeId,
      orgId: order.orgId,
      kind: order.kind,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd,
      locale: order.locale,
      schemaVersion: REPORT_SCHEMA_VERSION,
      sha256,
      generatedBy: order.generatedBy,
      hasPdf: true,
      csvTables: [...REPORT_CSV_TABLES],
      dataKey,
      bodySha256,
      domain: data.meta.domain,
      createdAt,
    };
    const stream = evidenceChainStream(order.storeId);
    const { events } = await this.aggregates.decide(stream, snapshotDecider, { type: 'RecordSnapshot', snapshot }, { actor: order.generatedBy, orgId: order.orgId, deadline: order.deadline });
    // Retention may have removed an expired snapshot's body, the same as this one's, since it was found there.
    await this.keepBody(dataKey, body);
    // Answered from the event, not the read model, which may not have caught up on a busy process.
    const made = events.find((event): event is SnapshotRecorded => event.type === 'ReportSnapshotRecorded');
    if (made) return snapshotDocument(made.data);
    const earlier = await this.recorded(stream, snapshotId);
    return snapshotDocument(earlier.data, earlier.revision);
  }

  /** Written once: a body already stored (an equal report's) is the same bytes, its name being their hash. */
  private async keepBody(key: string, body: string): Promise<void> {
    if (!(await this.files.has(key))) await this.files.put(key, Buffer.from(body, 'utf8'), 'application/json');
  }

  /** A snapshot another replica recorded first (a scheduled run made twice at once). */
  private async recorded(stream: string, snapshotId: string): Promise<RecordedEvent<SnapshotRecorded['data']>> {
    const chain = (await this.eventStore.readStream(stream)) as Array<RecordedEvent<SnapshotEvent['data']>>;
    const found = chain.find((event): event is RecordedEvent<SnapshotRecorded['data']> => event.type === 'ReportSnapshotRecorded' && event.data.snapshotId === snapshotId);
    if (!found) throw new Error(`snapshot ${snapshotId} is not on the chain of its store`);
    return found;
  }

  private async data(order: SnapshotOrder, reportId: string, generatedAt: string): Promise<ReportData> {
    const periodEnd = Date.parse(order.periodEnd);
    const wholeHours = { store_id: order.storeId, hour_start: { $gte: order.periodStart, $lte: new Date(periodEnd - HOUR_MS).toISOString() } };
    const hours = await this.readStore.collection<SdkHourDocument>(SDK_HOURS).find(wholeHours, { sort: { hour_start: 1 } });
    const pages = await this.readStore.collection<SdkPageDocument>(SDK_PAGES).find(wholeHours);
    return buildReport(
      { reportId, storeId: order.storeId, periodStart: order.periodStart, periodEnd: order.periodEnd, locale: order.locale, generatedAt },
      { facts: this.facts.factsOf(order.storeId, order.orgId), sdkHours: hours, sdkPages: pages },
    );
  }

  private get snapshots() {
    return this.readStore.collection<SnapshotDocument>(REPORT_SNAPSHOTS);
  }
}

