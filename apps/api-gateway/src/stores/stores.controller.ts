import { Body, Controller, Delete, Get, Header, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { BUS, type Bus, type CommandIds } from '@pss/bus';
import { COMMANDS, STORES, toResource, type StoreCommandEnvelope, type StoreDocument } from '@pss/contracts';
import { notFound } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { listPaymentPages } from '@pss/store-reads';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequiresScope } from '../auth/scopes.decorator';
import { API_PREFIX } from '../http/api-prefix';
import { FastRead } from '../http/fast-reads';
import { UuidPipe } from '../http/uuid.pipe';
import { withoutOrgId } from '../http/without-org-id';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestCommandIds } from '../idempotency/request-command-ids';
import { jsonPage, JsonRendering, JSON_CONTENT_TYPE } from '../pagination/json-page';
import { AddPagesBody, CreateStoreBody, ListStoresQuery, UpdateStoreBody } from './store.dto';
import { DomainTxtLookup } from './domain-txt-lookup';
import { StoreStatus } from './store-status';

@Controller(`${API_PREFIX}/stores`)
export class StoresController {
  private readonly listed = new JsonRendering<StoreDocument>(toResource);

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(BUS) private readonly bus: Bus,
    private readonly status: StoreStatus,
    private readonly dns: DomainTxtLookup,
  ) {}

  private get stores() {
    return this.readStore.collection<StoreDocument>(STORES);
  }

  /** Answered as JSON text (`jsonPage`): clients poll it. */
  @Get()
  @RequiresScope('stores:read')
  @FastRead()
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@Query() query: ListStoresQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const filter = { org_id: principal.actingOrgId, ...(query.status ? { status: query.status } : {}) };
    return jsonPage(this.stores, filter, { field: '_id', direction: -1 }, query, this.listed);
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('stores:write')
  @Idempotent()
  create(@Body() body: CreateStoreBody, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds) {
    return this.send(COMMANDS.storeCreate, principal, undefined, withoutOrgId(body), commandIds);
  }

  @Get(':id')
  @RequiresScope('stores:read')
  async get(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return toResource(await this.owned(id, principal));
  }

  @Patch(':id')
  @RequiresScope('stores:write')
  update(@Param('id', UuidPipe) id: string, @Body() body: UpdateStoreBody, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.storeUpdate, principal, id, withoutOrgId(body));
  }

  /** Suspends: a store's data is never deleted. */
  @Delete(':id')
  @RequiresScope('stores:write')
  suspend(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.send(COMMANDS.storeSuspend, principal, id, {});
  }

  @Post(':id/rotate-key')
  @HttpCode(200)
  @RequiresScope('stores:write')
  @Idempotent()
  rotateKey(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal, @RequestCommandIds() commandIds?: CommandIds) {
    return this.send(COMMANDS.storeRotateKey, principal, id, {}, commandIds);
  }

  /**
   * Looks the store's challenge record up, then lets inventory judge what was found: 200 with the store verified,
   * 422 `domain_not_verified` saying what was expected and found, 409 when another store owns the domain.
   */
  @Post(':id/verify-domain')
  @HttpCode(200)
  @RequiresScope('stores:write')
  async verifyDomain(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    const challenge = (await this.owned(id, principal)).domain_verification;
    // A staging store has no challenge: inventory answers why, with nothing looked up.
    const txt = challenge ? await this.dns.txt(challenge.record) : [];
    return this.send(COMMANDS.storeVerifyDomain, principal, id, { txt });
  }

  @Get(':id/pages')
  @RequiresScope('stores:read')
  async listPages(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    await this.owned(id, principal);
    return { data: await listPaymentPages(this.readStore, id) };
  }

  /** Adds one page (answered with the page) or several (`payment_pages`, answered with `{data}`). */
  @Post(':id/pages')
  @HttpCode(200)
  @RequiresScope('pages:write')
  async addPages(@Param('id', UuidPipe) id: string, @Body() body: AddPagesBody, @CurrentPrincipal() principal: Principal) {
    const single = body.payment_pages === undefined;
    const payment_pages = single ? [{ url_pattern: body.url_pattern!, payment_methods: body.payment_methods! }] : body.payment_pages!;
    const added = await this.send<{ data: unknown[] }>(COMMANDS.storeAddPages, principal, id, { payment_pages });
    return single ? added.data[0] : added;
  }

  @Get(':id/status')
  @RequiresScope('stores:read')
  async storeStatus(@Param('id', UuidPipe) id: string, @CurrentPrincipal() principal: Principal) {
    return this.status.of(await this.owned(id, principal));
  }

  private async owned(id: string, principal: Principal): Promise<StoreDocument> {
    const store = await this.stores.findOne({ _id: id, org_id: principal.actingOrgId });
    if (!store) throw notFound('Store');
    return store;
  }

  private send<Reply = unknown>(pattern: string, principal: Principal, storeId: string | undefined, input: object, commandIds?: CommandIds): Promise<Reply> {
    const envelope: StoreCommandEnvelope = { orgId: principal.actingOrgId, storeId, input };
    return this.bus.request<Reply>(pattern, envelope, { commandIds, actor: principal.actor });
  }
}

