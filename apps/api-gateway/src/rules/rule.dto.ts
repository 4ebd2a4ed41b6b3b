import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import type { RuleTarget, RuleType } from '@pss/contracts';
import { Omittable, OmittableUuid } from '../http/field-validators';
import { ListQuery } from '../pagination/list-query.dto';

const RULE_TYPES: RuleType[] = ['block', 'allow'];
const RULE_TARGETS: RuleTarget[] = ['domain', 'url', 'hash'];
/** Inventory checks each target's form; this only bounds the size (a script URL, with room). */
const RULE_VALUE_MAX = 2048;
const RULE_LABEL_MAX = 200;

/** Ids are compared as stored (lower case), whatever case the client sent. */
const LowerCase = () => Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value));

/** Partners may name the child organization in the body as well as in the query. */
class ActsOnOrganization {
  @OmittableUuid()
  org_id?: string;
}

export class CreateRuleBody extends ActsOnOrganization {
  @LowerCase()
  @IsUUID('all', { message: 'store_id must be a UUID' })
  store_id: string;

  @IsIn(RULE_TYPES)
  type: RuleType;

  @IsIn(RULE_TARGETS)
  target: RuleTarget;

  @IsString()
  @IsNotEmpty()
  @MaxLength(RULE_VALUE_MAX)
  value: string;

  @Omittable()
  @IsString()
  @MaxLength(RULE_LABEL_MAX)
  label?: string;
}

export class UpdateRuleBody extends ActsOnOrganization {
  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(RULE_LABEL_MAX)
  label?: string;

  @Omittable()
  @IsBoolean()
  active?: boolean;
}

/** Query strings carry text: only the words `true` and `false` are booleans, anything else stays wrong. */
const QueryBoolean = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

export class ListRulesQuery extends ListQuery {
  @Omittable()
  @LowerCase()
  @IsUUID('all', { message: 'store_id must be a UUID' })
  store_id?: string;

  @Omittable()
  @IsIn(RULE_TYPES)
  type?: RuleType;

  @Omittable()
  @QueryBoolean()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;
}

/** DELETE /rules?id=: the spec's second form of DELETE /rules/{id}. */
export class DeleteRuleQuery extends ActsOnOrganization {
  @LowerCase()
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;
}
