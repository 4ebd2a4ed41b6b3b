export const STORE_COMMANDS = {
  storeCreate: 'inventory.store.create',
  storeUpdate: 'inventory.store.update',
  storeSuspend: 'inventory.store.suspend',
  storeRotateKey: 'inventory.store.rotate-key',
  storeAddPages: 'inventory.store.add-pages',
  storeVerifyDomain: 'inventory.store.verify-domain',
} as const;

/** `storeVerifyDomain`'s input: the TXT strings the gateway's lookup of the store's challenge record answered. */
export interface VerifyDomainInput {
  txt: string[];
}

/** What every store command carries besides its input: on which organization's behalf (the actor: in the metadata). */
export interface StoreCommandEnvelope<Input = unknown> {
  orgId: string;
  storeId?: string;
  input: Input;
}
