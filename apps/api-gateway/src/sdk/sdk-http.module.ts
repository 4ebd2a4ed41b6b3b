import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { readSdkBodiesAsText } from './sdk-body';
import { KeyedSdkScripts } from './keyed-sdk-scripts';
import { SdkBundle } from './sdk-bundle';
import { SdkConfigDocument } from './sdk-config';
import { SdkConfigChanges } from './sdk-config-changes';
import { answerSdkEventsBeforeNest } from './sdk-events-route';
import { ClientAddresses } from './intake/client-addresses';
import { SdkIntake } from './intake/sdk-intake';
import { SightingsFlusher } from './intake/sightings-flusher';
import { SDK_BODY_LIMIT_BYTES, SdkController } from './sdk.controller';
import { SdkKeys } from './sdk-keys';
import { sdkClientRateLimiterProvider, sdkRateLimiterProvider } from './sdk-rate-limiter';
import { SdkAdmission } from './sdk-admission';

@Module({
  controllers: [SdkController],
  providers: [SdkKeys, SdkConfigDocument, SdkBundle, KeyedSdkScripts, SdkConfigChanges, sdkRateLimiterProvider, sdkClientRateLimiterProvider, SdkAdmission, SdkIntake, SightingsFlusher, ClientAddresses],
})
export class SdkHttpModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    this.moduleRef.get(SdkAdmission).install(fastify);
    readSdkBodiesAsText(fastify, SDK_BODY_LIMIT_BYTES);
    answerSdkEventsBeforeNest(fastify, this.moduleRef.get(SdkController));
  }
}
