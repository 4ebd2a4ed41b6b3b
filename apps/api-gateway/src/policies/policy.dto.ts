import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsObject, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { POLICY_ACTIONS, POLICY_MATCH_ITEMS, POLICY_MATCH_LIST_MAX, POLICY_MATCH_ORIGINS, POLICY_MODES } from '@pss/contracts';
import { Nullable, Omittable, OmittableUuid, Stacked } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

/** A list to match against: an empty one would match nothing, silently; left out, the key matches any script. */
const Names = (max: number) =>
  Stacked(
    IsArray(),
    ArrayMinSize(1, { message: '$property must not be empty: leave it out to match any' }),
    ArrayMaxSize(POLICY_MATCH_LIST_MAX),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(max, { each: true }),
  );

/** Which scripts a policy looks at; an unknown key is a 400 (one detail per key). */
export class PolicyMatchBody {
  @Omittable()
  @IsIn(POLICY_MATCH_ORIGINS)
  origin?: string;

  @Omittable()
  @Names(POLICY_MATCH_ITEMS.domain.max)
  @Matches(POLICY_MATCH_ITEMS.domain.form.pattern, { each: true, message: POLICY_MATCH_ITEMS.domain.form.message })
  domain?: string[];

  @Omittable()
  @Names(POLICY_MATCH_ITEMS.path_glob.max)
  @Matches(POLICY_MATCH_ITEMS.path_glob.form.pattern, { each: true, message: POLICY_MATCH_ITEMS.path_glob.form.message })
  path_glob?: string[];

  @Omittable()
  @Names(POLICY_MATCH_ITEMS.category.max)
  category?: string[];

  @Omittable()
  @Names(POLICY_MATCH_ITEMS.vendor_id.max)
  vendor_id?: string[];
}

export class PolicyConditionsBody {
  @Omittable()
  @IsBoolean()
  same_origin?: boolean;

  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  prevalence_min?: number;

  @Omittable()
  @IsBoolean()
  no_sensitive_field_access?: boolean;

  @Omittable()
  @IsBoolean()
  not_in_threat_list?: boolean;

  @Omittable()
  @IsBoolean()
  in_threat_list?: boolean;

  @Omittable()
  @IsBoolean()
  store_provider?: boolean;

  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  max_size_kb?: number;

  @Omittable()
  @IsBoolean()
  has_integrity_attr?: boolean;
}

/** What create and update both accept. */
class PolicySettingsBody {
  @OmittableUuid()
  org_id?: string;

  @Nullable()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @Omittable()
  @IsBoolean()
  active?: boolean;

  @Omittable()
  @IsIn(POLICY_MODES)
  mode?: string;

  @Omittable()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  priority?: number;

  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => PolicyMatchBody)
  match?: PolicyMatchBody;

  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => PolicyConditionsBody)
  conditions?: PolicyConditionsBody;

  @Nullable()
  @IsString()
  @MaxLength(2000)
  justification_template?: string | null;

  @Nullable()
  @IsInt()
  @Min(1)
  @Max(3650)
  expires_days?: number | null;
}

export class CreatePolicyBody extends PolicySettingsBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name: string;

  @IsIn(POLICY_ACTIONS)
  action: string;

  /** null or absent: an organization-level policy. */
  @Nullable()
  @IsUUID('all', { message: 'store_id must be a UUID' })
  store_id?: string | null;
}

export class UpdatePolicyBody extends PolicySettingsBody {
  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name?: string;

  @Omittable()
  @IsIn(POLICY_ACTIONS)
  action?: string;
}

export class PolicyRunBody {
  @OmittableUuid()
  org_id?: string;

  @OmittableUuid()
  store_id?: string;
}

export class ListPoliciesQuery extends ListQuery {
  @OmittableUuid()
  store_id?: string;

  @Omittable()
  @IsIn(['true', 'false'], { message: 'active must be true or false' })
  active?: string;
}
