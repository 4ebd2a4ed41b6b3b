import { Inject, Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { BUS, type Bus } from '@pss/bus';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CLOCK, type Clock } from '@pss/kernel';
import { FILE_STORE, type FileStore } from '@pss/files';
import { MAIL_SENDER, MailModule, type MailSender } from '@pss/mail';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { SecretBox } from '@pss/secrets';
import { Access } from './access/access.service';
import { MembersProjection } from './access/members.projection';
import { DashboardAuditLogProjection } from './audit/dashboard-audit-log.projection';
import { relyingPartyOf } from './access/passkey-ceremony';
import { AttemptLimiter, PER_ACCOUNT, PER_ADDRESS } from './http/attempt-limiter';
import { mountDashboard } from './http/dashboard-server';
import { SessionStore } from './http/session-store';
import { alertsRoutes } from './routes/alerts.routes';
import { pageAsOfRoutes } from './routes/page-as-of.routes';
import { policiesRoutes } from './routes/policies.routes';
import { rulesRoutes } from './routes/rules.routes';
import { reportsRoutes } from './routes/reports.routes';
import { auditLogRoutes } from './routes/audit-log.routes';
import { inventoryRoutes } from './routes/inventory.routes';
import { emailChannelsRoutes } from './routes/email-channels.routes';
import { homeRoutes } from './routes/home.routes';
import { invitationRoutes } from './routes/invitation.routes';
import { membersRoutes } from './routes/members.routes';
import { partnersRoutes } from './routes/partners.routes';
import { reviewRoutes } from './routes/review.routes';
import { passkeysRoutes } from './routes/passkeys.routes';
import type { RouteDeps } from './routes/route-deps';
import { signInRoutes } from './routes/sign-in.routes';
import { stepUpRoutes } from './routes/step-up.routes';
import { storesRoutes } from './routes/stores.routes';
import { tokensRoutes } from './routes/tokens.routes';
import { webhooksRoutes } from './routes/webhooks.routes';

/** Mounts the dashboard on the process's HTTP server (the gateway's, in either mode) before it starts listening. */
@Injectable()
class DashboardHttp implements OnModuleInit {
  private readonly logger = new Logger('Dashboard');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly access: Access,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    private readonly secrets: SecretBox,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  onModuleInit(): void {
    const deps: RouteDeps = {
      access: this.access,
      rp: relyingPartyOf(this.config.publicUrl),
      limits: { perAddress: new AttemptLimiter(PER_ADDRESS), perAccount: new AttemptLimiter(PER_ACCOUNT) },
      bus: this.bus,
      readStore: this.readStore,
    };
    mountDashboard(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      // A new page adds its routes here (docs/dashboard.md, "Adding a page").
      routes: [...homeRoutes(deps), ...signInRoutes(deps), ...invitationRoutes(deps), ...passkeysRoutes(deps), ...stepUpRoutes(deps), ...membersRoutes(deps, { mail: this.mail, sessions: new SessionStore(this.readStore), publicUrl: this.config.publicUrl }), ...partnersRoutes(deps), ...tokensRoutes(deps), ...emailChannelsRoutes(deps), ...auditLogRoutes(deps), ...storesRoutes(deps, { sdkScriptUrl: this.config.sdkScriptUrl }), ...alertsRoutes(deps), ...pageAsOfRoutes(deps), ...policiesRoutes(deps), ...rulesRoutes(deps), ...reportsRoutes(deps, { files: this.files }), ...reviewRoutes(deps), ...inventoryRoutes(deps), ...webhooksRoutes(deps, { secrets: this.secrets })],
      sessions: new SessionStore(this.readStore),
      readStore: this.readStore,
      now: () => this.clock.now(),
      log: (message, fields) => this.logger.warn({ message, ...fields }),
    });
  }
}

/** The dashboard (issue 31): server-rendered pages at /dashboard, its sign-in data in its own access streams. */
@Module({ imports: [MailModule.forRoot()], providers: [Access, MembersProjection, DashboardAuditLogProjection, DashboardHttp] })
export class DashboardModule {}
