import { Controller, Get, Options, Post } from '@nestjs/common';
import { gateOfHandler } from './request-admission';

@Controller('api/v1/stores')
class Stores {
  @Get(':id') get() {}
  @Post('secret') unlisted() {}
}

@Controller('sdk/v1')
class Sdk {
  @Options(['config', 'events']) preflight() {}
  @Get(['config', 'versions']) mixed() {}
}

describe('the gate of a handler', () => {
  it('is the table’s entry for the route the handler serves', () => {
    expect(gateOfHandler(Stores, Stores.prototype.get)).toEqual({ kind: 'bearer', scope: 'stores:read', orgId: 'accepted' });
  });

  it('is one gate for a handler that serves several routes with the same gate', () => {
    expect(gateOfHandler(Sdk, Sdk.prototype.preflight)).toEqual({ kind: 'public' });
  });

  it('fails loudly for a route the table does not list, and for a handler whose routes have different gates', () => {
    expect(() => gateOfHandler(Stores, Stores.prototype.unlisted)).toThrow('POST /api/v1/stores/secret (Stores.unlisted) needs one gate in route-gates.ts');
    expect(() => gateOfHandler(Sdk, Sdk.prototype.mixed)).toThrow('GET /sdk/v1/config, GET /sdk/v1/versions (Sdk.mixed) needs one gate in route-gates.ts');
  });
});
