import { Inject, Injectable } from '@nestjs/common';
import { REPORT_SNAPSHOTS, reportPdfKey, type ReportPdfReply } from '@pss/contracts';
import { FILE_STORE, type FileStore } from '@pss/files';
import { notFound } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { renderReportPdf } from '../rendering/report-pdf';
import { ReportGenerator, type SnapshotDocument } from './report-generator';

/**
 * A snapshot's PDF, rendered from its stored data the first time it is asked for and kept in the file store
 * (immutable like the snapshot), so later requests are a redirect to a signed URL.
 */
@Injectable()
export class ReportPdfs {
  private readonly rendering = new Map<string, Promise<ReportPdfReply>>();

  constructor(
    private readonly generator: ReportGenerator,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  async ensure(orgId: string, snapshotId: string): Promise<ReportPdfReply> {
    const snapshot = await this.readStore.collection<SnapshotDocument>(REPORT_SNAPSHOTS).findOne({ _id: snapshotId, org_id: orgId });
    if (!snapshot) throw notFound('Report snapshot');
    const key = reportPdfKey(snapshotId);
    if (await this.files.has(key)) return { key };
    // Two requests for the same new PDF render it once.
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.render(snapshot, key).finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  private async render(snapshot: SnapshotDocument, key: string): Promise<ReportPdfReply> {
    const data = await this.generator.dataOf(snapshot);
    if (!data) throw notFound('Report data');
    const { _id: id, sha256, kind, created_at, generated_by, locale } = snapshot;
    const pdf = await renderReportPdf(data, { id, sha256, kind, created_at, generated_by, locale, timezone: data.meta.store.timezone });
    await this.files.put(key, pdf, 'application/pdf');
    return { key };
  }
}
