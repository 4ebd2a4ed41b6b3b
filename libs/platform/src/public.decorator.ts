import { SetMetadata } from '@nestjs/common';

export const PUBLIC_METADATA = 'pss:public';

/** Routes open without a token: health, readiness, the OpenAPI document, the SDK's own endpoints. */
export const Public = () => SetMetadata(PUBLIC_METADATA, true);
