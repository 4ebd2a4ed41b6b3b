export const ORGANIZATION_COMMANDS = {
  organizationCreate: 'inventory.organization.create',
} as const;
