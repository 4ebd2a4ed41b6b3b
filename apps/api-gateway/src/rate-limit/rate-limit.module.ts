import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CLOCK, type Clock } from '@pss/kernel';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { rateLimitPolicy } from './rate-limit-policy';
import { RateLimiter } from './rate-limiter';
import { RateLimitInterceptor } from './rate-limit.interceptor';

/** Per-token rate limiting of every authenticated route of the application that imports it. */
@Module({
  providers: [
    {
      provide: RateLimiter,
      useFactory: (config: ServiceConfig, clock: Clock) => new RateLimiter(rateLimitPolicy(config.rateLimitPerMinute), clock),
      inject: [SERVICE_CONFIG, CLOCK],
    },
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
  ],
})
export class RateLimitModule {}
