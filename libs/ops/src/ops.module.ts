import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OpsRegistry } from './ops-registry';
import { OpsServer } from './ops-server';
import { ProjectionsOps } from './projections.ops';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [OpsRegistry, OpsServer, ProjectionsOps],
  exports: [OpsRegistry],
})
export class OpsModule {}
