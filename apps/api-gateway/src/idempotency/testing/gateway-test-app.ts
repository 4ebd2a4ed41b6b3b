import { randomBytes } from 'node:crypto';
import { SecretBox } from '@pss/secrets';
import { Global, Injectable, Module, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { EVENT_STORE, SqliteEventStore } from '@pss/event-store';
import { CLOCK, type Clock } from '@pss/kernel';
import { PUBLIC_METADATA } from '@pss/platform';
import { MemoryReadStore, READ_STORE } from '@pss/read-store';
import { PRINCIPAL, type AuthenticatedRequest } from '../../auth/principal';
import { ExceptionsFilter } from '../../http/exceptions.filter';

/** Headers the stand-in guard reads the caller from. */
export const TEST_ORG_HEADER = 'x-test-org';
export const TEST_TOKEN_HEADER = 'x-test-token';

/**
 * Stands in for AuthenticationGuard: every non-public request is authenticated, as the organization and token
 * its test headers name (org-1 and token-1 by default).
 */
@Injectable()
class TestPrincipalGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const orgId = String(request.headers[TEST_ORG_HEADER] ?? 'org-1');
    const tokenId = String(request.headers[TEST_TOKEN_HEADER] ?? 'token-1');
    request[PRINCIPAL] = { tokenId, orgId, actingOrgId: orgId, prefix: tokenId, scopes: [], actor: `api:${tokenId}` };
    return true;
  }
}

export interface GatewayTestApp {
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/**
 * A Nest application on Fastify with the gateway's real ExceptionsFilter, a stand-in guard, and the platform's
 * ports a gateway module may need (SQLite event store in memory, memory read store, the given clock).
 */
export async function startGatewayTestApp(options: { imports: Type[]; controllers: Type[]; clock: Clock }): Promise<GatewayTestApp> {
  const eventStore = SqliteEventStore.open(':memory:', { clock: options.clock });

  @Global()
  @Module({
    providers: [
      { provide: CLOCK, useValue: options.clock },
      { provide: SecretBox, useValue: new SecretBox(() => randomBytes(32)) },
      { provide: EVENT_STORE, useValue: eventStore },
      { provide: READ_STORE, useValue: new MemoryReadStore() },
    ],
    exports: [CLOCK, SecretBox, EVENT_STORE, READ_STORE],
  })
  class TestPlatformModule {}

  @Module({
    imports: [TestPlatformModule, ...options.imports],
    controllers: options.controllers,
    providers: [
      { provide: APP_GUARD, useClass: TestPrincipalGuard },
      { provide: APP_FILTER, useClass: ExceptionsFilter },
    ],
  })
  class TestAppModule {}

  const app = await NestFactory.create<NestFastifyApplication>(TestAppModule, new FastifyAdapter(), { logger: false });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    close: async () => {
      await app.close();
      await eventStore.close();
    },
  };
}
