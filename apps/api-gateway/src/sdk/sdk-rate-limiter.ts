import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { rateLimitPolicy } from '../rate-limit/rate-limit-policy';
import { RateLimiter } from '../rate-limit/rate-limiter';

export const SDK_RATE_LIMITER = Symbol('SdkRateLimiter');

/** SDK batches per minute per store, counted apart from the API tokens' limit. */
export const sdkRateLimiterProvider: Provider = {
  provide: SDK_RATE_LIMITER,
  useFactory: (config: ServiceConfig, clock: Clock) => new RateLimiter(rateLimitPolicy(config.sdkRateLimitPerMinute), clock),
  inject: [SERVICE_CONFIG, CLOCK],
};
