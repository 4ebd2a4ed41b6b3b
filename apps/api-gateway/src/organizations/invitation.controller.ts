import { Controller, Get, Header, Inject, Query } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { isUuid } from '@pss/kernel';
import { Public } from '../auth/scopes.decorator';

/**
 * Where owner invitation e-mails sent before the dashboard pointed (`/invite?org=`): those links carry no token,
 * so the page says where to sign in and how to get a working invitation, instead of answering 404. It reveals
 * nothing: it neither looks the organization up nor echoes anything but a well-formed id.
 */
@Controller('invite')
export class InvitationController {
  constructor(@Inject(SERVICE_CONFIG) private readonly config: ServiceConfig) {}

  @Get()
  @Public()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  page(@Query('org') org: unknown): string {
    return [
      'Payment Page Script Security',
      '',
      typeof org === 'string' && isUuid(org) ? `You were named the owner of organization ${org}.` : 'You were named the owner of an organization.',
      'This link is from an older invitation e-mail. Ask the partner or operator who created your organization for',
      `a new invitation, or sign in to the dashboard at ${this.config.publicUrl}/dashboard if you accepted one.`,
      '',
      `The API: ${this.config.publicUrl}/api/v1 (described by ${this.config.publicUrl}/api/v1/openapi.json).`,
      '',
    ].join('\n');
  }
}
