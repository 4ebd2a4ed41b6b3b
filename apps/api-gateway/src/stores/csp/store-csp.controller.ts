import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { PAYMENT_PAGES } from '@pss/contracts';
import { CLOCK, notFound, type Clock } from '@pss/kernel';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { ownStore } from '@pss/store-reads';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { RequiresScope } from '../../auth/scopes.decorator';
import { API_PREFIX } from '../../http/api-prefix';
import { UuidPipe } from '../../http/uuid.pipe';
import { DEFAULT_UNCHANGED_DAYS, StoreCspQuery } from './store-csp.dto';
import { dryRun, integrityAttributes } from './store-csp';
import { StorePolicy } from './store-policy';

const DAY_MS = 24 * 3600 * 1000;
/** The dry run looks back this far (issue 35). */
const DRY_RUN_DAYS = 30;

/** A store's CSP and SRI, written from its inventory (docs/csp.md): an extension of the spec's interface. */
@Controller(`${API_PREFIX}/stores`)
export class StoreCspController {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly policies: StorePolicy,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/csp')
  @RequiresScope('stores:read')
  async csp(@Param('id', UuidPipe) id: string, @Query() query: StoreCspQuery, @CurrentPrincipal() principal: Principal) {
    const store = await ownStore(this.readStore, principal.actingOrgId, id);
    // Scripts are inventoried per store, not per page: a page's policy is its store's (docs/decisions.md, issue 35).
    if (query.page_id && !(await this.readStore.collection(PAYMENT_PAGES).findOne({ _id: query.page_id, store_id: id }))) throw notFound('Payment page');
    const inventory = await this.policies.inventory(id);
    const now = this.clock.now().getTime();
    const unchangedDays = query.unchanged_days ?? DEFAULT_UNCHANGED_DAYS;
    const since = new Date(now - DRY_RUN_DAYS * DAY_MS);
    const policy = await this.policies.written(store, inventory, query.mode ?? 'report-only');
    return {
      store_id: id,
      page_id: query.page_id ?? null,
      mode: query.mode ?? 'report-only',
      ...policy,
      dry_run: { since: since.toISOString(), would_break: dryRun(inventory, since) },
      integrity: { unchanged_days: unchangedDays, ...integrityAttributes(inventory, new Date(now - unchangedDays * DAY_MS)) },
    };
  }
}
