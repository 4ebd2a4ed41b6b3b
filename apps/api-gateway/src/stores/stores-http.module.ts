import { Module } from '@nestjs/common';
import { StoreCspController } from './csp/store-csp.controller';
import { StorePolicy } from './csp/store-policy';
import { DomainTxtLookup } from './domain-txt-lookup';
import { StoreStatus } from './store-status';
import { StoresController } from './stores.controller';

@Module({
  controllers: [StoresController, StoreCspController],
  providers: [StoreStatus, StorePolicy, DomainTxtLookup],
})
export class StoresHttpModule {}
