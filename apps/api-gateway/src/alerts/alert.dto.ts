import { IsIn, IsISO8601, IsString, MaxLength } from 'class-validator';
import { ALERT_NOTE_MAX, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES, type AlertStatus } from '@pss/contracts';
import { Nullable, Omittable, OmittableUuid } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

export class ListAlertsQuery extends ListQuery {
  @OmittableUuid()
  store_id?: string;

  @Omittable()
  @IsIn(ALERT_STATUSES)
  status?: string;

  @Omittable()
  @IsIn(ALERT_SEVERITIES)
  severity?: string;

  @Omittable()
  @IsIn(ALERT_TYPES)
  type?: string;
}

export class UpdateAlertBody {
  @OmittableUuid()
  org_id?: string;

  @IsIn(ALERT_STATUSES, { message: 'status must be resolved or open' })
  status: AlertStatus;

  /** null (or blanks) clears the note. */
  @Nullable()
  @IsString({ message: 'note must be a string or null' })
  @MaxLength(ALERT_NOTE_MAX)
  note?: string | null;

  /** Until when occurrences count silently, also after the alert is resolved; null ends the snooze. */
  @Nullable()
  @IsISO8601({ strict: true }, { message: 'snoozed_until must be an ISO 8601 date-time or null' })
  snoozed_until?: string | null;
}
