import { Inject, Injectable } from '@nestjs/common';
import { BUS, type Bus } from '@pss/bus';
import { COMMANDS, expiredSnapshotData, toResource, type ReportPdfReply, type ReportPdfRequest, type ReportSnapshotDocument } from '@pss/contracts';
import { FILE_STORE, type FileStore } from '@pss/files';
import { attachment, CSV_CONTENT_TYPE, csvFileName, reportCsv, snapshotData, snapshotDataJson } from '@pss/report-files';
import type { FastifyReply } from 'fastify';
import type { ReportFormatQuery } from './report.dto';

/** Rendering a large report's PDF takes seconds (benchmark 6); the bus's default wait is shorter. */
const PDF_TIMEOUT_MS = 60_000;

/** A snapshot in the format asked for: JSON with its data, a redirect to its PDF, or one CSV table streamed. */
@Injectable()
export class ReportResponses {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  async send(reply: FastifyReply, snapshot: ReportSnapshotDocument, query: ReportFormatQuery, generated: boolean): Promise<void> {
    if (snapshot._expired_at) throw expiredSnapshotData(snapshot._expired_at);
    switch (query.format ?? 'json') {
      case 'pdf':
        return this.pdf(reply, snapshot);
      case 'csv':
        return this.csv(reply, snapshot, query);
      default:
        return this.json(reply, snapshot, generated);
    }
  }

  /**
   * The snapshot with its data. The data is spliced in as stored (its canonical JSON, the bytes the sha256 is
   * of) rather than parsed and serialized again: a year's report is megabytes, and that would hold the event loop.
   */
  private async json(reply: FastifyReply, snapshot: ReportSnapshotDocument, generated: boolean): Promise<void> {
    const data = await snapshotDataJson(this.files, snapshot);
    const head = JSON.stringify({ ...toResource(snapshot), generated });
    reply.status(200).header('Content-Type', 'application/json; charset=utf-8').send(`${head.slice(0, -1)},"data":${data}}`);
  }

  /** 302 to a signed link valid one hour; the reports service renders the PDF into storage first if needed. */
  private async pdf(reply: FastifyReply, snapshot: ReportSnapshotDocument): Promise<void> {
    const request: ReportPdfRequest = { orgId: snapshot.org_id, snapshotId: snapshot._id };
    const { location } = await this.bus.request<ReportPdfReply>(COMMANDS.reportPdf, request, { timeoutMs: PDF_TIMEOUT_MS });
    reply.status(302).header('Location', location).header('Cache-Control', 'no-store').send();
  }

  /** One table, streamed in slices (RFC 4180, UTF-8 with BOM, CRLF), as an attachment with a file name. */
  private async csv(reply: FastifyReply, snapshot: ReportSnapshotDocument, query: ReportFormatQuery): Promise<void> {
    const table = query.csv_table ?? 'scripts';
    const data = await snapshotData(this.files, snapshot);
    reply
      .status(200)
      .header('Content-Type', CSV_CONTENT_TYPE)
      .header('Content-Disposition', attachment(csvFileName(snapshot._domain, table, snapshot.period_start, snapshot.period_end)))
      .send(reportCsv(data, table, snapshot.locale));
  }
}
