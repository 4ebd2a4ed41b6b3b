import { Controller, Get, Header, Inject, Query } from '@nestjs/common';
import { CONNECTIONS, toResource, type ConnectionDocument } from '@pss/contracts';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { jsonPage, JsonRendering, JSON_CONTENT_TYPE } from '../pagination/json-page';
import { checkStoreFilter } from '../stores/own-store';
import { ListConnectionsQuery } from './connection.dto';

/**
 * Where the organization's payment pages send data (issue 35): each origin with how, from which pages and by
 * which scripts. Read with `scripts:read`: connections are the other half of what 6.4.3 and 11.6.1 watch on a
 * payment page, and a token that may read the scripts may read where they send.
 */
@Controller(`${API_PREFIX}/connections`)
export class ConnectionsController {
  private readonly listed = new JsonRendering<ConnectionDocument>(toResource);

  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** Newest first, as GET /scripts. */
  @Get()
  @RequiresScope('scripts:read')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(@Query() query: ListConnectionsQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const { limit, cursor, org_id: _org, script_id, ...filters } = query;
    await checkStoreFilter(this.readStore, principal.actingOrgId, query.store_id);
    return jsonPage(
      this.readStore.collection<ConnectionDocument>(CONNECTIONS),
      { org_id: principal.actingOrgId, ...filters, ...(script_id ? { 'initiators.script_id': script_id } : {}) },
      { field: 'first_seen_at', direction: -1 },
      { limit, cursor },
      this.listed,
    );
  }
}
