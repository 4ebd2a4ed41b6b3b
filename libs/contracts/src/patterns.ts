/**
 * Command patterns (request/reply over the bus). Listed here so every sender subscribes to their reply topics
 * before connecting (Kafka), and so docs/events.md has one source.
 */
export const COMMANDS = {
  organizationCreate: 'inventory.organization.create',
  tokenRecordUse: 'inventory.token.record-use',
} as const;

export const COMMAND_PATTERNS: string[] = Object.values(COMMANDS);
