import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ChangeStoreHandler } from './change-store';
import { CreateStoreHandler } from './create-store';
import { StoreAccess } from './store-access';
import { StoreProjection } from './store.projection';
import { StoresMessages } from './stores.messages';

@Module({
  imports: [CqrsModule],
  controllers: [StoresMessages],
  providers: [StoreProjection, StoreAccess, CreateStoreHandler, ChangeStoreHandler],
  exports: [StoreAccess],
})
export class StoresModule {}
