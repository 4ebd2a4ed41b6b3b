import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENT_METADATA = 'pss:idempotent';

/**
 * Operations a client may retry safely with an `Idempotency-Key` header (spec, Common rules): the first response
 * is replayed to retries for 24 hours. Routes without it ignore the header. Decorated routes answer JSON.
 * The interceptor is attached to these routes only: a global one would sit on every request's hot path.
 */
export const Idempotent = () => applyDecorators(SetMetadata(IDEMPOTENT_METADATA, true), UseInterceptors(IdempotencyInterceptor));
