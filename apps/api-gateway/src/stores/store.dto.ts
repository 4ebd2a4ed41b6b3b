import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { STORE_ENVIRONMENTS, type StoreEnvironment } from '@pss/contracts';
import { EachNested, IsTimeZone, Nullable, Omittable, OmittableUuid, Stacked } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

export const MAX_RECIPIENTS = 50;
export const MAX_PAGES_PER_REQUEST = 50;

const PaymentMethodList = () =>
  Stacked(IsArray(), ArrayMaxSize(20), IsString({ each: true }), IsNotEmpty({ each: true }), MaxLength(40, { each: true }));

const PagePattern = () =>
  Stacked(
    IsString(),
    Matches(/^\/\S*$/, { message: 'url_pattern must be a path (glob) starting with /, e.g. /checkout/*' }),
    MaxLength(500),
  );

export class RecipientBody {
  @IsString()
  @Matches(/^[a-z0-9_-]{1,32}$/i, { message: 'method must be 1 to 32 letters, digits, _ or -, e.g. pix' })
  method: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  key: string;

  @Omittable()
  @IsString()
  @MaxLength(120)
  label?: string;
}

export class PaymentPageBody {
  @PagePattern()
  url_pattern: string;

  @PaymentMethodList()
  payment_methods: string[];
}

/** Partners may name the child organization in the body as well as in the query. */
class ActsOnOrganization {
  @OmittableUuid()
  org_id?: string;
}

/** What both create and update accept: the profile and the SDK configuration. */
class StoreSettingsBody extends ActsOnOrganization {
  @Omittable()
  @IsString()
  @MaxLength(120)
  name?: string;

  @Omittable()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be exactly 2 letters (ISO 3166-1 alpha-2)' })
  country?: string;

  @Omittable()
  @IsTimeZone()
  timezone?: string;

  @Omittable()
  @IsIn(['monitor', 'block'])
  mode?: string;

  @Omittable()
  @IsInt()
  @Min(10)
  @Max(120)
  calibration_seconds?: number;

  @Omittable()
  @IsInt()
  @Min(500)
  @Max(60000)
  overlay_check_interval_ms?: number;

  @Omittable()
  @IsIn(['warn', 'silent'])
  installation_order_policy?: string;

  @Omittable()
  @PaymentMethodList()
  payment_methods?: string[];

  @Nullable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(200, { each: true })
  sensitive_fields?: string[] | null;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  expected_iframe_origins?: string[];

  @Omittable()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(/^\/\S*$/, { each: true, message: 'allowed_service_workers must be same-origin paths starting with /' })
  @MaxLength(500, { each: true })
  allowed_service_workers?: string[];

  @Omittable()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(64, { each: true })
  gtm_containers?: string[];

  @Omittable()
  @IsBoolean()
  developer_mode?: boolean;

  @Omittable()
  @IsIn(['stable', 'latest'])
  release_channel?: string;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_RECIPIENTS, { message: `recipients must contain at most ${MAX_RECIPIENTS} items` })
  @EachNested(() => RecipientBody)
  recipients?: RecipientBody[];
}

export class CreateStoreBody extends StoreSettingsBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  domain: string;

  /** Set once, on creation: a store's evidence is production's or not for its whole life. */
  @Omittable()
  @IsIn(STORE_ENVIRONMENTS)
  environment?: StoreEnvironment;

  @Nullable()
  @IsString()
  @MaxLength(32)
  emergency_contact?: string | null;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_PAGES_PER_REQUEST, { message: `payment_pages must contain at most ${MAX_PAGES_PER_REQUEST} items` })
  @EachNested(() => PaymentPageBody)
  payment_pages?: PaymentPageBody[];
}

/** The spec limits emergency_contact to 32 characters on creation only; updates get a sanity cap. */
export class UpdateStoreBody extends StoreSettingsBody {
  @Nullable()
  @IsString()
  @MaxLength(255)
  emergency_contact?: string | null;
}

/** One page (`{url_pattern, payment_methods}`) or several (`{payment_pages: [...]}`). */
export class AddPagesBody extends ActsOnOrganization {
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PAGES_PER_REQUEST, { message: `payment_pages must contain at most ${MAX_PAGES_PER_REQUEST} items` })
  @EachNested(() => PaymentPageBody)
  payment_pages?: PaymentPageBody[];

  @ValidateIf((body: AddPagesBody) => body.payment_pages === undefined)
  @PagePattern()
  url_pattern?: string;

  @ValidateIf((body: AddPagesBody) => body.payment_pages === undefined)
  @PaymentMethodList()
  payment_methods?: string[];
}

export class ListStoresQuery extends ListQuery {
  @Omittable()
  @IsIn(['active', 'suspended', 'deleted'])
  status?: string;
}
