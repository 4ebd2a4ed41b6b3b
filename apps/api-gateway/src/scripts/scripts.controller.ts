import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { CommandIds } from '@pss/bus';
import { COMMANDS, SCRIPTS, toResource, type ScriptDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { ApiController } from '../http/api-controller';
import { API_PREFIX } from '../http/api-prefix';
import { FastRead } from '../http/fast-reads';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestCommandIds } from '../idempotency/request-command-ids';
import { jsonPage, JsonRendering, JSON_CONTENT_TYPE } from '../pagination/json-page';
import { checkStoreFilter } from '../stores/own-store';
import { listedScript } from './listed-script';
import { AuthorizeScriptBody, BlockScriptBody, ListScriptsQuery } from './script.dto';

@Controller(`${API_PREFIX}/scripts`)
export class ScriptsController extends ApiController {
  private readonly listed = new JsonRendering<ScriptDocument>(listedScript);

  /** The inventory, newest first; the review history is left to GET /scripts/{id}. JSON text (`jsonPage`): polled. */
  @Get()
  @RequiresScope('scripts:read')
  @FastRead()
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async list(@Query() query: ListScriptsQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const { limit, cursor, org_id: _org, ...filters } = query;
    await checkStoreFilter(this.readStore, principal.actingOrgId, query.store_id);
    return jsonPage(
      this.readStore.collection<ScriptDocument>(SCRIPTS),
      { org_id: principal.actingOrgId, ...filters },
      { field: 'first_seen_at', direction: -1 },
      { limit, cursor },
      this.listed,
    );
  }

  @Get(':id')
  @RequiresScope('scripts:read')
  async get(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    const script = await this.readStore.collection<ScriptDocument>(SCRIPTS).findOne({ _id: id, org_id: principal.actingOrgId });
    if (!script) throw notFound('Script');
    return toResource(script);
  }

  @Post(':id/authorize')
  @HttpCode(200)
  @RequiresScope('scripts:review')
  authorize(@Param('id', UuidPipe) id: string, @Body() body: AuthorizeScriptBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.scriptAuthorize, principal, id, withoutOrgId(body));
  }

  @Post(':id/block')
  @HttpCode(200)
  @RequiresScope('scripts:review')
  @Idempotent()
  block(@Param('id', UuidPipe) id: string, @Body() body: BlockScriptBody, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds) {
    return this.send(COMMANDS.scriptBlock, principal, id, withoutOrgId(body), commandIds);
  }
}
