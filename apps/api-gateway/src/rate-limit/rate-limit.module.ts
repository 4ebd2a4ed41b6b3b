import { Global, Module } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { rateLimitPolicy } from './rate-limit-policy';
import { RateLimiter } from './rate-limiter';

/** The per-token rate limiter the authentication guard applies to every authenticated route. */
@Global()
@Module({
  providers: [
    {
      provide: RateLimiter,
      useFactory: (config: ServiceConfig, clock: Clock) => new RateLimiter(rateLimitPolicy(config.rateLimitPerMinute), clock),
      inject: [SERVICE_CONFIG, CLOCK],
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
