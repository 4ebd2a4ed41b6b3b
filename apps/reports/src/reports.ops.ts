import { Injectable } from '@nestjs/common';
import { validationError } from '@pss/kernel';
import { OpsCommand, type OpsArgs } from '@pss/ops';
import { ScheduledReportsJob } from './schedule/scheduled-reports.job';
import { ChainAudit } from './snapshot/chain-audit';

/**
 * `npm run -s admin -- reports run-schedule --at 2026-11-30T09:00:00Z`: makes the scheduled reports that were
 * due at that instant (a Monday the service missed, say) and prints the snapshots made; a second run makes none.
 * `reports verify-chain --store STORE_ID`: checks the store's evidence chain and prints every break.
 */
@Injectable()
export class ReportsOps {
  constructor(
    private readonly job: ScheduledReportsJob,
    private readonly chains: ChainAudit,
  ) {}

  @OpsCommand('reports.run-schedule')
  runSchedule(args: OpsArgs) {
    const at = typeof args.at === 'string' ? new Date(args.at) : undefined;
    if (!at || Number.isNaN(at.getTime())) throw validationError([{ field: 'at', message: '--at must be an ISO 8601 date-time, e.g. 2026-11-30T09:00:00Z' }]);
    return this.job.runAt(at, 'instant');
  }

  @OpsCommand('reports.verify-chain')
  verifyChain(args: OpsArgs) {
    const store = args.store;
    if (typeof store !== 'string' || !UUID.test(store)) throw validationError([{ field: 'store', message: '--store must be a store id (UUID)' }]);
    return this.chains.verify(store);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
