import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ActingOrganization } from './auth/acting-organization';
import { AuthenticationGuard } from './auth/authentication.guard';
import { TokenAuthenticator } from './auth/token-authenticator';
import { ExceptionsFilter } from './http/exceptions.filter';
import { validationPipe } from './http/validation';
import { OpenApiController } from './openapi/openapi.controller';
import { OrganizationsHttpModule } from './organizations/organizations-http.module';
import { StoresHttpModule } from './stores/stores-http.module';

/** HTTP /api/v1: authentication, validation, errors; sends commands over the bus and reads read models. */
@Module({
  imports: [DiscoveryModule, OrganizationsHttpModule, StoresHttpModule],
  controllers: [OpenApiController],
  providers: [
    TokenAuthenticator,
    ActingOrganization,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_FILTER, useClass: ExceptionsFilter },
    { provide: APP_PIPE, useValue: validationPipe },
  ],
})
export class ApiGatewayModule {}
