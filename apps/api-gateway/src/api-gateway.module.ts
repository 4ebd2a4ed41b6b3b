import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { AlertsHttpModule } from './alerts/alerts-http.module';
import { ActingOrganization } from './auth/acting-organization';
import { AuthenticationGuard } from './auth/authentication.guard';
import { BearerBeforeBody } from './auth/bearer-before-body';
import { RequestAdmission } from './auth/request-admission';
import { TokenAuthenticator } from './auth/token-authenticator';
import { ExceptionsFilter } from './http/exceptions.filter';
import { FastReads } from './http/fast-reads';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { validationPipe } from './http/validation';
import { OpenApiController } from './openapi/openapi.controller';
import { OrganizationsHttpModule } from './organizations/organizations-http.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReportsHttpModule } from './reports/reports-http.module';
import { ReportFilesHttpModule } from './reports/report-files.module';
import { PoliciesHttpModule } from './policies/policies-http.module';
import { RulesHttpModule } from './rules/rules-http.module';
import { ScriptsHttpModule } from './scripts/scripts-http.module';
import { ConnectionsHttpModule } from './connections/connections-http.module';
import { SdkHttpModule } from './sdk/sdk-http.module';
import { StoresHttpModule } from './stores/stores-http.module';
import { WebhooksHttpModule } from './webhooks/webhooks-http.module';

/** HTTP /api/v1: authentication, validation, errors; sends commands over the bus and reads read models. */
@Module({
  imports: [DiscoveryModule, RateLimitModule, IdempotencyModule, OrganizationsHttpModule, StoresHttpModule, ScriptsHttpModule, ConnectionsHttpModule, RulesHttpModule, PoliciesHttpModule, AlertsHttpModule, ReportsHttpModule, ReportFilesHttpModule, WebhooksHttpModule, SdkHttpModule],
  controllers: [OpenApiController],
  providers: [
    TokenAuthenticator,
    ActingOrganization,
    RequestAdmission,
    BearerBeforeBody,
    FastReads,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_FILTER, useClass: ExceptionsFilter },
    { provide: APP_PIPE, useValue: validationPipe },
  ],
})
export class ApiGatewayModule {}
