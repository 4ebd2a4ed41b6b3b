import { DEPLOYED_CSP, deployedCspId, type DeployedCspDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { PageHeadersEvent } from './page-headers.decider';

const isPageHeadersEvent = canHandle<PageHeadersEvent>({ SecurityHeadersBaselined: true, SecurityHeadersChanged: true });

/**
 * `deployed_csp`: the CSP each page of a store sends, as the SDK last read it. Both events carry every security
 * header the page sent, so a policy the page stopped sending becomes null.
 */
export class DeployedCspProjection extends readModelProjection({
  name: 'deployed_csp',
  streamPrefixes: ['headers-'],
  collections: { [DEPLOYED_CSP]: [{ key: { store_id: 1 } }] },
  canHandle: isPageHeadersEvent,
  async evolve(event, context) {
    const { storeId, orgId, page, headers, at } = event.data;
    await applyOnce(context.collection<DeployedCspDocument>(DEPLOYED_CSP), deployedCspId(storeId, page), event, {
      $set: {
        org_id: orgId,
        store_id: storeId,
        page,
        enforced: headers['content-security-policy'] ?? null,
        report_only: headers['content-security-policy-report-only'] ?? null,
        observed_at: at,
      },
    }, { upsert: true });
  },
}) {}
