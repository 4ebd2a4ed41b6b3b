import { Module } from '@nestjs/common';
import { SdkConfigDocument } from './sdk-config';
import { SdkController } from './sdk.controller';
import { SdkKeys } from './sdk-keys';
import { sdkRateLimiterProvider } from './sdk-rate-limiter';

@Module({
  controllers: [SdkController],
  providers: [SdkKeys, SdkConfigDocument, sdkRateLimiterProvider],
})
export class SdkHttpModule {}
