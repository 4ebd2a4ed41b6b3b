/** Read model `stores` (owner: inventory; reader: api-gateway). */
export const STORES = 'stores';

export interface StoreDocument {
  _id: string;
  org_id: string;
  name: string;
  domain: string;
  status: 'active' | 'suspended' | 'deleted';
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}
