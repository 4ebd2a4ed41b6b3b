import { IsIn, IsInt, IsISO8601, IsNotEmpty, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { BLOCK_BY, INTEGRITY_STATUSES, SCRIPT_STATUSES, SCRIPT_TYPES, type BlockBy } from '@pss/contracts';
import { Omittable, OmittableUuid } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

export const JUSTIFICATION_MAX = 2000;

export class ListScriptsQuery extends ListQuery {
  @OmittableUuid()
  store_id?: string;

  @Omittable()
  @IsIn(SCRIPT_STATUSES)
  status?: string;

  @Omittable()
  @IsIn(SCRIPT_TYPES)
  type?: string;

  @Omittable()
  @IsIn(INTEGRITY_STATUSES)
  integrity_status?: string;

  @Omittable()
  @IsString()
  // `category=` would filter to nothing: inline scripts' null category is not the empty string.
  @MinLength(1, { message: 'category must not be empty' })
  @MaxLength(64)
  category?: string;
}

/** PCI DSS 6.4.3 wants every authorized script justified in writing: the justification is required. */
export class AuthorizeScriptBody {
  @OmittableUuid()
  org_id?: string;

  @IsString()
  @IsNotEmpty({ message: 'justification is required: say why this script is needed on the payment page' })
  @MaxLength(JUSTIFICATION_MAX)
  justification: string;

  @Omittable()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(3650)
  expires_days?: number;
}

export class BlockScriptBody {
  @OmittableUuid()
  org_id?: string;

  @Omittable()
  @IsString()
  @MaxLength(JUSTIFICATION_MAX)
  justification?: string;

  /** An external script's block rule names its host by default (the spec); `url` blocks this script alone. */
  @Omittable()
  @IsIn(BLOCK_BY, { message: "by must be 'domain' (the script's host, the default) or 'url' (this script alone)" })
  by?: BlockBy;
}
