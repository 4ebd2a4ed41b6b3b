import { Global, Module } from '@nestjs/common';
import { IdempotencyStoreModule } from '@pss/idempotency';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Idempotency-Key handling: the store and the interceptor every `@Idempotent()` route uses. */
@Global()
@Module({
  imports: [IdempotencyStoreModule],
  providers: [IdempotencyInterceptor],
  exports: [IdempotencyInterceptor, IdempotencyStoreModule],
})
export class IdempotencyModule {}
