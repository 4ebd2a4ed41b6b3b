import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@pss/contracts';

export const SCOPE_METADATA = 'pss:scope';

/** The one scope an operation needs (spec, Authentication 7): read by the guard and by the OpenAPI document. */
export const RequiresScope = (scope: Scope) => SetMetadata(SCOPE_METADATA, scope);

export { Public, PUBLIC_METADATA } from '@pss/platform';
