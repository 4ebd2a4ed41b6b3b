import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyStoreModule } from '@pss/idempotency';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Idempotency-Key handling for every `@Idempotent()` route of the application that imports it. */
@Module({
  imports: [IdempotencyStoreModule],
  providers: [{ provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
})
export class IdempotencyModule {}
