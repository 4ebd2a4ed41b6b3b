import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_METADATA = 'pss:idempotent';

/**
 * Operations a client may retry safely with an `Idempotency-Key` header (spec, Common rules): the first response
 * is replayed to retries for 24 hours. Routes without it ignore the header. Decorated routes answer JSON.
 */
export const Idempotent = () => SetMetadata(IDEMPOTENT_METADATA, true);
