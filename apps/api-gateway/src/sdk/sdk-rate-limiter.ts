import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { rateLimitPolicy } from '../rate-limit/rate-limit-policy';
import { RateLimiter } from '../rate-limit/rate-limiter';

export const SDK_RATE_LIMITER = Symbol('SdkRateLimiter');
export const SDK_CLIENT_RATE_LIMITER = Symbol('SdkClientRateLimiter');

/** The share of a store's SDK rate one client address may take. */
const CLIENT_SHARE = 10;

/** SDK requests per minute per store, counted apart from the API tokens' limit. */
export const sdkRateLimiterProvider: Provider = {
  provide: SDK_RATE_LIMITER,
  useFactory: (config: ServiceConfig, clock: Clock) => new RateLimiter(rateLimitPolicy(config.sdkRateLimitPerMinute), clock),
  inject: [SERVICE_CONFIG, CLOCK],
};

/** SDK requests per minute per store and client address: a tenth of the store's rate. */
export const sdkClientRateLimiterProvider: Provider = {
  provide: SDK_CLIENT_RATE_LIMITER,
  useFactory: (config: ServiceConfig, clock: Clock) => new RateLimiter(rateLimitPolicy(Math.ceil(config.sdkRateLimitPerMinute / CLIENT_SHARE)), clock),
  inject: [SERVICE_CONFIG, CLOCK],
};
