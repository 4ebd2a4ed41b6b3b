import { Module } from '@nestjs/common';
import { StoreCspController } from './csp/store-csp.controller';
import { StoreStatus } from './store-status';
import { StoresController } from './stores.controller';

@Module({
  controllers: [StoresController, StoreCspController],
  providers: [StoreStatus],
})
export class StoresHttpModule {}
