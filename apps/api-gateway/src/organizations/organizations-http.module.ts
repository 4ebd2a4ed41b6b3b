import { Module } from '@nestjs/common';
import { OrganizationUsageReader } from './organization-usage';
import { OrganizationsController } from './organizations.controller';

@Module({
  controllers: [OrganizationsController],
  providers: [OrganizationUsageReader],
})
export class OrganizationsHttpModule {}
