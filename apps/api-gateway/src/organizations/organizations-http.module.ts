import { Module } from '@nestjs/common';
import { InvitationController } from './invitation.controller';
import { OrganizationUsageReader } from './organization-usage';
import { OrganizationsController } from './organizations.controller';

@Module({
  controllers: [OrganizationsController, InvitationController],
  providers: [OrganizationUsageReader],
})
export class OrganizationsHttpModule {}
