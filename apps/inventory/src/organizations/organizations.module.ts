import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { MailModule } from '@pss/mail';
import { PoliciesModule } from '../policies/policies.module';
import { CreateOrganizationHandler } from './create-organization';
import { OrganizationProjection } from './organization.projection';
import { OrganizationsMessages } from './organizations.messages';
import { OwnerInvitations } from './owner-invitations';
import { ReportScheduleSettingsConsumer } from './report-schedule-settings';

/** Organizations: creation (API and admin CLI), the owner's invitation, and the default policies they start with. */
@Module({
  imports: [CqrsModule, MailModule.forRoot(), PoliciesModule],
  controllers: [OrganizationsMessages, ReportScheduleSettingsConsumer],
  providers: [OrganizationProjection, CreateOrganizationHandler, OwnerInvitations],
  // The admin CLI prints invitation links (`org create`, `org invite`).
  exports: [OwnerInvitations],
})
export class OrganizationsModule {}
