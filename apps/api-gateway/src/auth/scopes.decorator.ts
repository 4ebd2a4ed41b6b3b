import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@pss/contracts';

export const SCOPE_METADATA = 'pss:scope';
export const NO_ORG_ID_METADATA = 'pss:no-org-id';

/** The one scope an operation needs (spec, Authentication 7): read by the guard and by the OpenAPI document. */
export const RequiresScope = (scope: Scope) => SetMetadata(SCOPE_METADATA, scope);

/** Operations that never act on a child organization (GET /organizations): `org_id` is refused. */
export const RefusesOrgId = () => SetMetadata(NO_ORG_ID_METADATA, true);

export { Public, PUBLIC_METADATA } from '@pss/platform';
