import { IsEmail, IsIn, IsOptional, IsUUID, Length } from 'class-validator';
import { BILLING_MODES, ORGANIZATION_NAME_MAX, ORGANIZATION_NAME_MIN, PLAN_NAMES, type BillingMode, type Plan } from '@pss/contracts';

/** POST /organizations. One constraint per field, so a bad field is one detail. */
export class CreateOrganizationBody {
  // Length alone also refuses anything that is not a string (a missing name included).
  @Length(ORGANIZATION_NAME_MIN, ORGANIZATION_NAME_MAX, {
    message: `name must be a string of ${ORGANIZATION_NAME_MIN} to ${ORGANIZATION_NAME_MAX} characters`,
  })
  name: string;

  @IsEmail({}, { message: 'owner_email must be an e-mail address' })
  owner_email: string;

  @IsOptional()
  @IsIn(PLAN_NAMES, { message: `plan must be one of ${PLAN_NAMES.join(', ')}` })
  plan?: Plan;

  @IsOptional()
  @IsIn(BILLING_MODES, { message: `billing_mode must be one of ${BILLING_MODES.join(', ')}` })
  billing_mode?: BillingMode;

  /**
   * Every body may name `org_id` (spec); this route refuses any value (@RefusesOrgId: a child is always created
   * under the caller's own organization), so only an explicit null gets this far, and means "absent".
   */
  @IsOptional()
  @IsUUID('all', { message: 'org_id must be a UUID' })
  org_id?: string;
}
