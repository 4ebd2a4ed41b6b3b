import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateOrganizationHandler } from './create-organization';
import { OrganizationProjection } from './organization.projection';

@Module({
  imports: [CqrsModule],
  providers: [OrganizationProjection, CreateOrganizationHandler],
})
export class OrganizationsModule {}
