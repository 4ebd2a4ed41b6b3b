import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { expiredSnapshotData, REPORT_SNAPSHOTS, reportPdfKey, snapshotOwnMeta, type ReportPdfReply } from '@pss/contracts';
import { FILE_STORE, type FileStore } from '@pss/files';
import { notFound } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { pdfFileName } from '@pss/report-files';
import { ReportFileLinks } from '@pss/report-files/report-file-links';
import { PdfThread } from '../rendering/pdf-thread';
import type { SnapshotDocument } from './report-generator';

/**
 * A snapshot's PDF: rendered from its stored data (in the PDF thread) the first time it is asked for, kept in the file store
 * (immutable like the snapshot), and handed out as a signed link valid one hour.
 */
@Injectable()
export class ReportPdfs {
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly thread: PdfThread,
    private readonly links: ReportFileLinks,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  async link(orgId: string, snapshotId: string): Promise<ReportPdfReply> {
    const snapshot = await this.readStore.collection<SnapshotDocument>(REPORT_SNAPSHOTS).findOne({ _id: snapshotId, org_id: orgId });
    if (!snapshot) throw notFound('Report snapshot');
    if (snapshot._expired_at) throw expiredSnapshotData(snapshot._expired_at);
    const key = reportPdfKey(snapshotId);
    const pdf = (await this.files.get(key))?.bytes ?? (await this.renderOnce(snapshot, key));
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    return { location: this.links.location({ key, sha256, fileName: pdfFileName(snapshot._domain, snapshot.period_start, snapshot.period_end) }) };
  }

  /** Two requests for the same new PDF render it once. */
  private renderOnce(snapshot: SnapshotDocument, key: string): Promise<Buffer> {
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.render(snapshot, key).finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  private async render(snapshot: SnapshotDocument, key: string): Promise<Buffer> {
    const stored = await this.files.get(snapshot._data_key);
    if (!stored) throw notFound('Report data');
    const { _id: id, sha256, kind, created_at, generated_by, locale } = snapshot;
    const pdf = await this.thread.render(stored.bytes.toString('utf8'), snapshotOwnMeta(snapshot), { id, sha256, kind, created_at, generated_by, locale });
    await this.files.put(key, pdf, 'application/pdf');
    return pdf;
  }
}
