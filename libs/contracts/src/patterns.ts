import { ALERT_COMMANDS } from './commands/alerts';
import { NOTIFIER_COMMANDS } from './commands/notifier';
import { ORGANIZATION_COMMANDS } from './commands/organizations';
import { EVIDENCE_CHAIN_QUERIES } from './commands/evidence-chain';
import { PAGE_HISTORY_QUERIES } from './commands/page-history';
import { POLICY_COMMANDS } from './commands/policies';
import { REPORT_COMMANDS } from './commands/reports';
import { RULE_COMMANDS, SCRIPT_COMMANDS } from './commands/scripts';
import { STORE_COMMANDS } from './commands/stores';
import { TOKEN_COMMANDS } from './commands/tokens';

/**
 * Command patterns (request/reply over the bus). Listed here so every sender subscribes to their reply topics
 * before connecting (Kafka), and so docs/events.md has one source.
 */
export const COMMANDS = { ...ORGANIZATION_COMMANDS, ...TOKEN_COMMANDS, ...STORE_COMMANDS, ...SCRIPT_COMMANDS, ...RULE_COMMANDS, ...POLICY_COMMANDS, ...ALERT_COMMANDS, ...NOTIFIER_COMMANDS, ...REPORT_COMMANDS, ...PAGE_HISTORY_QUERIES, ...EVIDENCE_CHAIN_QUERIES } as const;

export const COMMAND_PATTERNS: string[] = Object.values(COMMANDS);
