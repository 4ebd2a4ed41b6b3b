import { Module } from '@nestjs/common';
import { StoreStatus } from './store-status';
import { StoresController } from './stores.controller';

@Module({
  controllers: [StoresController],
  providers: [StoreStatus],
})
export class StoresHttpModule {}
