import { Controller, Get, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Public } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { buildOpenApiDocument } from './openapi-document';

@Controller(API_PREFIX)
export class OpenApiController implements OnApplicationBootstrap {
  private document?: ReturnType<typeof buildOpenApiDocument>;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    this.document = buildOpenApiDocument(this.discovery, this.scanner, '1.0.0');
  }

  @Get('openapi.json')
  @Public()
  openapi() {
    return this.document;
  }
}
