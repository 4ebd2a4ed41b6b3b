import { STORES, type StoreDocument } from '@pss/contracts';
import type { ReadStore } from '@pss/read-store';
import { allows, type Role } from '../access/roles';
import { channelRequirement } from '../email-channels/email-channel-form';
import type { StoreChoice } from '../pages/email-channels';

/** The organization's stores the pages name (deleted ones are gone for good): name, domain, time zone, status. */
export async function storesOf(readStore: ReadStore, orgId: string): Promise<Array<StoreChoice & Pick<StoreDocument, 'status'>>> {
  const stores = await readStore.collection<StoreDocument>(STORES).find({ org_id: orgId, status: { $ne: 'deleted' } }, { sort: { name: 1, _id: 1 } });
  return stores.map(({ _id, name, domain, timezone, status }) => ({ _id, name, domain, timezone, status }));
}

/** The scopes a person may create a channel for (null: the organization), among stores that still take changes. */
export function creatableScopes(role: Role, stores: Array<StoreChoice & Pick<StoreDocument, 'status'>>): Array<StoreChoice | null> {
  const open = stores.filter((store) => store.status === 'active');
  return [null, ...open].filter((store) => allows(role, channelRequirement(store ? store._id : null)));
}
