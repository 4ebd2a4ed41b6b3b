import { Inject, Injectable } from '@nestjs/common';
import { CONNECTIONS, DEPLOYED_CSP, isLocalHost, SCRIPTS, SDK_LOADER_CSP_HASH, type ConnectionDocument, type DeployedCspDocument, type ScriptDocument, type StoreDocument } from '@pss/contracts';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { READ_STORE, type ReadStore } from '@pss/read-store';
import { policyDrift, type DeployedPolicy, type PolicyDrift } from './stale-policy';
import { connectSources, storeCsp, type Csp, type CspMode, type InventoriedScript } from './store-csp';

/** A store's policy as written from its inventory now, and how the policies its pages send compare with it. */
@Injectable()
export class StorePolicy {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(SERVICE_CONFIG) private readonly service: ServiceConfig,
  ) {}

  async inventory(storeId: string): Promise<InventoriedScript[]> {
    const scripts = await this.readStore.collection<ScriptDocument>(SCRIPTS).find({ store_id: storeId }, { sort: { _id: 1 } });
    return scripts.map((script) => ({ ...script, id: script._id }));
  }

  async written(store: Pick<StoreDocument, '_id' | 'sdk_key'>, scripts: readonly InventoriedScript[], mode: CspMode): Promise<Csp> {
    const connections = await this.readStore.collection<ConnectionDocument>(CONNECTIONS).find({ store_id: store._id });
    return storeCsp({
      mode,
      scripts,
      sdkOrigin: new URL(this.service.publicUrl).origin,
      loaderHash: SDK_LOADER_CSP_HASH,
      reportUrl: `${this.service.publicUrl}/sdk/v1/csp?key=${store.sdk_key}`,
      connections: connectSources(connections, scripts),
    });
  }

  /** Each policy a page of the store was last seen sending, stale or not; stale when any is. */
  async staleness(store: StoreDocument): Promise<{ stale: boolean; deployed: PolicyDrift[] }> {
    const pages = await this.readStore.collection<DeployedCspDocument>(DEPLOYED_CSP).find({ store_id: store._id }, { sort: { page: 1 } });
    const deployed = pages.flatMap(policiesOf);
    if (deployed.length === 0) return { stale: false, deployed: [] };
    const scripts = await this.inventory(store._id);
    const current = (await this.written(store, scripts, 'enforce')).value;
    const drifts = deployed.map((policy) => policyDrift(policy, current, scripts, pageOrigin(store)));
    return { stale: drifts.some((drift) => drift.stale), deployed: drifts };
  }
}

function policiesOf(page: DeployedCspDocument): DeployedPolicy[] {
  const seen = { page: page.page, observed_at: page.observed_at };
  return [
    ...(page.enforced === null ? [] : [{ ...seen, header: 'Content-Security-Policy' as const, value: page.enforced }]),
    ...(page.report_only === null ? [] : [{ ...seen, header: 'Content-Security-Policy-Report-Only' as const, value: page.report_only }]),
  ];
}

/** What 'self' means on the store's pages: its domain, over HTTPS but for a staging store on a local host. */
function pageOrigin(store: Pick<StoreDocument, 'domain' | 'environment'>): string {
  const host = store.domain.replace(/:\d+$/, '');
  return `${store.environment === 'staging' && isLocalHost(host) ? 'http' : 'https'}://${store.domain}`;
}
