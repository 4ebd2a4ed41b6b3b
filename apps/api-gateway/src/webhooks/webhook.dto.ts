import { IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, Length, MaxLength, registerDecorator } from 'class-validator';
import {
  ALERT_SEVERITIES,
  CHANNEL_FORMATS,
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_NAME_MAX,
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  WEBHOOK_URL_MAX,
  type AlertSeverity,
  type ChannelFormat,
} from '@pss/contracts';
import { Nullable, Omittable, OmittableUuid } from '../http/field-validators';

/**
 * An absolute https URL with a host (spec: https only); which addresses it may reach is decided when sending. A
 * user name or password in it is refused: the URL is shown by every read of the channel, the secret never is.
 */
function IsHttpsUrl(): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isHttpsUrl',
      target: target.constructor,
      propertyName: property as string,
      options: {
        message: ({ value }) =>
          isUrl(value) && hasCredentials(new URL(value))
            ? `${String(property)} must not carry a user name or password; deliveries are authenticated by their signature`
            : `${String(property)} must be an https URL of at most ${WEBHOOK_URL_MAX} characters`,
      },
      validator: {
        validate: (value: unknown) => isUrl(value) && isHttps(new URL(value)) && !hasCredentials(new URL(value)),
      },
    });
}

const isUrl = (value: unknown): value is string => typeof value === 'string' && value.length <= WEBHOOK_URL_MAX && URL.canParse(value);
const isHttps = (url: URL): boolean => url.protocol === 'https:' && url.hostname.length > 0;
const hasCredentials = (url: URL): boolean => url.username !== '' || url.password !== '';

const eventsMessage = `events must be null or a list of: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`;

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
  @IsArray({ message: eventsMessage })
  @IsIn(SUBSCRIBABLE_EVENT_TYPES, { each: true, message: eventsMessage })
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
