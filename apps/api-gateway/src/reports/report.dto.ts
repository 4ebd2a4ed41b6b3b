import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsISO8601, IsUUID } from 'class-validator';
import {
  REPORT_CADENCES,
  REPORT_CSV_TABLES,
  REPORT_FORMATS,
  REPORT_KINDS,
  REPORT_LOCALES,
  type ReportCadence,
  type ReportCsvTable,
  type ReportFormat,
  type ReportKind,
  type ReportLocale,
} from '@pss/contracts';
import { Omittable, OmittableUuid } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

const QueryBoolean = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
const oneOf = (field: string, values: readonly string[]) => ({ message: `${field} must be one of: ${values.join(', ')}` });

/** How a snapshot is answered: GET /reports/pci and GET /reports/pci/snapshots/{id}. */
export class ReportFormatQuery {
  @Omittable()
  @IsIn(REPORT_FORMATS, oneOf('format', REPORT_FORMATS))
  format?: ReportFormat;

  @Omittable()
  @IsIn(REPORT_CSV_TABLES, oneOf('csv_table', REPORT_CSV_TABLES))
  csv_table?: ReportCsvTable;

  /** Partners only (orgs:manage): act on a child organization. */
  @OmittableUuid()
  org_id?: string;
}

export class ReportQuery extends ReportFormatQuery {
  @IsUUID('all', { message: 'store_id is required and must be a UUID' })
  store_id: string;

  @Omittable()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'period_start must be an ISO 8601 date-time' })
  period_start?: string;

  @Omittable()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'period_end must be an ISO 8601 date-time' })
  period_end?: string;

  @Omittable()
  @IsIn(REPORT_LOCALES, oneOf('locale', REPORT_LOCALES))
  locale?: ReportLocale;

  @Omittable()
  @QueryBoolean()
  @IsBoolean({ message: 'regenerate must be true or false' })
  regenerate?: boolean;
}

export class ListSnapshotsQuery extends ListQuery {
  @OmittableUuid()
  store_id?: string;

  @Omittable()
  @IsIn(REPORT_KINDS, oneOf('kind', REPORT_KINDS))
  kind?: ReportKind;
}

export class ScheduleQuery {
  @OmittableUuid()
  store_id?: string;

  @OmittableUuid()
  org_id?: string;
}

export class DeleteScheduleQuery {
  @IsUUID('all', { message: 'store_id is required and must be a UUID' })
  store_id: string;

  @OmittableUuid()
  org_id?: string;
}

export class SetScheduleBody {
  @OmittableUuid()
  org_id?: string;

  @IsUUID('all', { message: 'store_id is required and must be a UUID' })
  store_id: string;

  @IsIn(REPORT_CADENCES, { message: 'cadence is required: weekly or monthly' })
  cadence: ReportCadence;

  @Omittable()
  @IsIn(REPORT_LOCALES, oneOf('locale', REPORT_LOCALES))
  locale?: ReportLocale;

  @Omittable()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;
}
