import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { readSdkBodiesAsText } from './sdk-body';
import { SdkBundle } from './sdk-bundle';
import { SdkConfigDocument } from './sdk-config';
import { SdkIntake } from './intake/sdk-intake';
import { SightingsFlusher } from './intake/sightings-flusher';
import { SDK_BODY_LIMIT_BYTES, SdkController } from './sdk.controller';
import { SdkKeys } from './sdk-keys';
import { sdkRateLimiterProvider } from './sdk-rate-limiter';

@Module({
  controllers: [SdkController],
  providers: [SdkKeys, SdkConfigDocument, SdkBundle, sdkRateLimiterProvider, SdkIntake, SightingsFlusher],
})
export class SdkHttpModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    readSdkBodiesAsText(this.adapterHost.httpAdapter.getInstance(), SDK_BODY_LIMIT_BYTES);
  }
}
