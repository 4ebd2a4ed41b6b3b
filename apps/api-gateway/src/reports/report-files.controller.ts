import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { FILE_STORE, type FileStore } from '@pss/files';
import { CLOCK, DomainError, notFound, type Clock } from '@pss/kernel';
import type { FastifyReply } from 'fastify';
import { attachment, REPORT_FILES_PATH } from '@pss/report-files';
import { ReportFileLinks } from '@pss/report-files/report-file-links';
import { Public } from '../auth/scopes.decorator';
import { ReportFileQuery } from './report-files.query';

/**
 * Report files by signed link (the `Location` of GET /reports/pci?format=pdf), at /files/v1/reports: no API
 * token, the signature is the permission. A malformed link is 400 `validation_error`; an altered or expired one 403 `forbidden`; a
 * genuine link whose file is gone, or was replaced by other bytes since, 404 `not_found`.
 */
@Controller(REPORT_FILES_PATH)
export class ReportFilesController {
  constructor(
    private readonly links: ReportFileLinks,
    @Inject(FILE_STORE) private readonly files: FileStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @Public()
  async file(@Query() query: ReportFileQuery, @Res() reply: FastifyReply): Promise<void> {
    const check = this.links.verify(query.key, query);
    if (!check.valid) {
      throw new DomainError('forbidden', check.reason === 'expired' ? 'This link has expired; ask for the report again' : 'This link is not valid');
    }
    const file = await this.files.get(query.key);
    if (!file || createHash('sha256').update(file.bytes).digest('hex') !== check.sha256) throw notFound('Report file');
    const secondsLeft = Math.max(0, Math.floor((check.expiresAt.getTime() - this.clock.now().getTime()) / 1000));
    reply
      .status(200)
      .headers({
        'Content-Type': file.contentType,
        'Content-Disposition': attachment(check.fileName),
        'Cache-Control': `private, max-age=${secondsLeft}`,
        'X-Content-Type-Options': 'nosniff',
        // The link is the permission: keep it out of Referer headers of whatever the viewer opens next.
        'Referrer-Policy': 'no-referrer',
      })
      .send(file.bytes);
  }
}
