import { IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, Length, MaxLength, registerDecorator } from 'class-validator';
import {
  ALERT_SEVERITIES,
  CHANNEL_FORMATS,
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_NAME_MAX,
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  webhookUrlProblem,
  WEBHOOK_EVENTS_MESSAGE,
  type AlertSeverity,
  type ChannelFormat,
} from '@pss/contracts';
import { Nullable, Omittable, OmittableUuid } from '../http/field-validators';

/** An https URL as the channel commands take it (webhookUrlProblem), refused here in the same words. */
function IsHttpsUrl(): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isHttpsUrl',
      target: target.constructor,
      propertyName: property as string,
      options: { message: ({ value }) => webhookUrlProblem(value, String(property)) ?? '' },
      validator: { validate: (value: unknown) => webhookUrlProblem(value) === null },
    });
}

/** What POST and PATCH share; `org_id` lets a partner name the child organization in the body. */
class WebhookSettings {
  @OmittableUuid()
  org_id?: string;

  @Omittable()
  @IsString()
  @Length(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_MAX, { message: `secret must be ${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters` })
  secret?: string;

  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(WEBHOOK_NAME_MAX)
  name?: string;

  /** null or empty: every event. */
  @Nullable()
  @IsArray({ message: WEBHOOK_EVENTS_MESSAGE })
  @IsIn(SUBSCRIBABLE_EVENT_TYPES, { each: true, message: WEBHOOK_EVENTS_MESSAGE })
  events?: string[] | null;

  @Omittable()
  @IsIn(ALERT_SEVERITIES)
  min_severity?: AlertSeverity;

  @Omittable()
  @IsBoolean()
  active?: boolean;
}

export class CreateWebhookBody extends WebhookSettings {
  @IsHttpsUrl()
  url: string;

  @Omittable()
  @IsIn(CHANNEL_FORMATS)
  format?: ChannelFormat;

  /** Omitted or null (as a Webhook shows it): organization-wide. Fixed after creation. */
  @Nullable()
  @IsUUID('all', { message: 'store_id must be a UUID' })
  store_id?: string | null;
}

/** Scope, type and format are fixed after creation: PATCH refuses them as unknown fields. */
export class UpdateWebhookBody extends WebhookSettings {
  @Omittable()
  @IsHttpsUrl()
  url?: string;
}
