export const POLICY_COMMANDS = {
  policyCreate: 'inventory.policy.create',
  policyUpdate: 'inventory.policy.update',
  policyDelete: 'inventory.policy.delete',
  policySimulate: 'inventory.policy.simulate',
  policyApply: 'inventory.policy.apply',
} as const;
