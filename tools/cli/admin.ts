import { serializeError } from '@pss/kernel';
import { callOps, NoOpsTarget, parseArgs } from './ops-call';

const USAGE = `usage: npm run -s admin -- <command> [options]
  org create --name N [--plan essential|standard|growth|pro|enterprise] [--billing-mode partner|processor] [--owner-email E] [--parent ORG_ID]
  org list [--parent ORG_ID]
  org invite --org ORG_ID   (a fresh dashboard invitation link for the owner, valid 7 days; replaces earlier ones)
  token create --org ORG_ID --name N --scopes a:b,c:d [--expires-days 30|90|365]
  token list --org ORG_ID
  token revoke --org ORG_ID --prefix PREFIX
  channels list --org ORG_ID
  deliveries list --channel CHANNEL_ID
  reports run-schedule --at 2026-11-30T09:00:00Z   (makes the scheduled reports due at that instant, once)
  reports verify-chain --store STORE_ID   (checks the store's report snapshots chain and their stored data)
Acts on the running service through its control socket ($OPS_SOCKET, else $DATA_DIR/ops.sock, else ./data/ops.sock);
with the service stopped (embedded mode), add --data-dir DIR to act on the data it left in DIR.
Prints one JSON object on stdout; exits 1 on error (when no service answers: one line on stderr instead).`;

const COMMANDS: Record<string, string> = {
  'org create': 'org.create',
  'org list': 'org.list',
  'org invite': 'org.invite',
  'token create': 'token.create',
  'token list': 'token.list',
  'token revoke': 'token.revoke',
  'channels list': 'channels.list',
  'deliveries list': 'deliveries.list',
  'reports run-schedule': 'reports.run-schedule',
  'reports verify-chain': 'reports.verify-chain',
};

async function main(): Promise<number> {
  const { words, args } = parseArgs(process.argv.slice(2));
  const command = COMMANDS[words.join(' ')];
  if (!command || args.help) {
    process.stderr.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  try {
    process.stdout.write(`${JSON.stringify(await callOps(command, args))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof NoOpsTarget) {
      process.stderr.write(`admin: ${error.message}\n`);
      return 1;
    }
    const serialized = serializeError(error);
    const body = serialized.code === 'internal_error' ? { code: 'error', message: (error as Error).message } : serialized;
    process.stdout.write(`${JSON.stringify({ error: body })}\n`);
    return 1;
  }
}

main().then((code) => process.exit(code));
