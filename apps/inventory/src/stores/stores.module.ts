import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ChangeStoreHandler } from './change-store';
import { CreateStoreHandler } from './create-store';
import { StoreAccess } from './store-access';
import { StoreDomains } from './store-domains';
import { StoreProjection } from './store.projection';
import { StoresMessages } from './stores.messages';
import { VerifyStoreDomainHandler } from './verify-domain';

@Module({
  imports: [CqrsModule],
  controllers: [StoresMessages],
  providers: [StoreProjection, StoreAccess, StoreDomains, CreateStoreHandler, ChangeStoreHandler, VerifyStoreDomainHandler],
  exports: [StoreAccess],
})
export class StoresModule {}
