export const SCRIPT_COMMANDS = {
  sdkIngest: 'inventory.sdk.ingest',
  scriptAuthorize: 'inventory.script.authorize',
  scriptBlock: 'inventory.script.block',
} as const;

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
