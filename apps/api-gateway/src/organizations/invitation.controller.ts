import { Controller, Get, Header, Inject, Query } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { isUuid } from '@pss/kernel';
import { Public } from '../auth/scopes.decorator';

/**
 * Where the owner invitation e-mail points (`/invite?org=`). The dashboard that accepts invitations does not
 * exist yet, so the link says so in plain words instead of answering 404. It reveals nothing: it neither looks
 * the organization up nor echoes anything but a well-formed id.
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
      'Accepting invitations in the dashboard is not available yet. Until it is, the partner or operator who',
      'created your organization issues its API tokens to you.',
      '',
      `The API: ${this.config.publicUrl}/api/v1 (described by ${this.config.publicUrl}/api/v1/openapi.json).`,
      '',
    ].join('\n');
  }
}
