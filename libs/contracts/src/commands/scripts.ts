export const SCRIPT_COMMANDS = {
  sdkIngest: 'inventory.sdk.ingest',
  scriptAuthorize: 'inventory.script.authorize',
  scriptBlock: 'inventory.script.block',
} as const;

/**
 * Inventory's answer to `sdkIngest`. `retry_after_seconds` says the store's budget of new scripts ran out: the
 * new scripts it could afford are recorded, the others are not, and the gateway answers 429 so the SDK sends
 * them again later (what was recorded is known by then, and costs nothing the second time).
 */
export interface SdkIngestReply {
  accepted: number;
  retry_after_seconds?: number;
}

export const RULE_COMMANDS = {
  ruleCreate: 'inventory.rule.create',
  ruleUpdate: 'inventory.rule.update',
  ruleDelete: 'inventory.rule.delete',
} as const;

/** What a script or rule command carries besides its input: who acts, on which organization's behalf. */
export interface InventoryCommandEnvelope<Input = unknown> {
  orgId: string;
  actor: string;
  id?: string;
  input: Input;
}
