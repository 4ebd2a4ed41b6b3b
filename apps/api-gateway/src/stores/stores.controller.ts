import { Controller, Get, Inject, Query } from '@nestjs/common';
import { STORES, type StoreDocument } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { ListQuery } from '../pagination/list-query.dto';
import { paginate } from '../pagination/paginate';

@Controller(`${API_PREFIX}/stores`)
export class StoresController {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  @Get()
  @RequiresScope('stores:read')
  list(@Query() query: ListQuery, @CurrentPrincipal() principal: Principal) {
    return paginate(
      this.readStore.collection<StoreDocument>(STORES),
      { org_id: principal.actingOrgId },
      { field: '_id', direction: -1 },
      query,
    );
  }
}
