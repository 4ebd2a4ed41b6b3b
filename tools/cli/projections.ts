import type { ListedDeadLetter } from '@pss/host';
import type { OpsArgs } from '@pss/ops';
import type { ProjectionStatus, RebuildProgress, RebuildResult } from '@pss/projections';
import { callOps, DATA_DIR_FLAG, parseArgs } from './ops-call';

const USAGE = `usage: npm run projections -- list
       npm run projections -- dead-letters
       npm run projections -- dead-letters replay [--topic TOPIC] [--since ISO-TIME]
       npm run projections -- rebuild NAME | --all
Acts on the running service; with it stopped (embedded mode), add --data-dir DIR for the data it left in DIR.`;

/** Dead letters `list` shows under the projections (the newest); `dead-letters` shows every one kept. */
const DEAD_LETTERS_IN_LIST = 10;

const BAR_WIDTH = 30;

function progressBar({ projection, processed, position, head }: RebuildProgress): string {
  const ratio = head > 0 ? Math.min(1, position / head) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  return `\r${projection.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%  ${processed} events`;
}

/** Events whose handlers gave up (bus.dead-letter), the newest last: what failed, on which key, why and when. */
function printDeadLetters(letters: ListedDeadLetter[], newest = letters.length): void {
  console.log(`\ndead letters: ${letters.length}${letters.length > newest ? ` (the newest ${newest}; all with dead-letters)` : ''}`);
  for (const letter of letters.slice(-newest)) {
    console.log(`${letter.at}  ${letter.topic}  key ${letter.key ?? '-'}  after ${letter.attempts} attempts: ${letter.error}`);
  }
}

async function main(): Promise<number> {
  const { words, args } = parseArgs(process.argv.slice(2));
  const target: OpsArgs = args[DATA_DIR_FLAG] === undefined ? {} : { [DATA_DIR_FLAG]: args[DATA_DIR_FLAG] };
  if (words[0] === 'list') {
    const status = (await callOps('projections.list', target)) as ProjectionStatus[];
    console.log(`${'NAME'.padEnd(24)} ${'STATE'.padEnd(12)} ${'CHECKPOINT'.padStart(12)} ${'LAG'.padStart(10)}`);
    for (const p of status) {
      console.log(`${p.name.padEnd(24)} ${p.state.padEnd(12)} ${String(p.checkpoint).padStart(12)} ${String(p.lag).padStart(10)}`);
    }
    printDeadLetters((await callOps('bus.dead-letters', target)) as ListedDeadLetter[], DEAD_LETTERS_IN_LIST);
    return 0;
  }
  if (words[0] === 'dead-letters' && words[1] === 'replay') {
    const filter: OpsArgs = { ...(typeof args.topic === 'string' ? { topic: args.topic } : {}), ...(typeof args.since === 'string' ? { since: args.since } : {}) };
    const { replayed } = (await callOps('bus.dead-letters.replay', { ...target, ...filter })) as { replayed: number };
    console.log(`replayed ${replayed} dead letters`);
    return 0;
  }
  if (words[0] === 'dead-letters') {
    printDeadLetters((await callOps('bus.dead-letters', target)) as ListedDeadLetter[]);
    return 0;
  }
  if (words[0] === 'rebuild' && (words[1] || args.all)) {
    // Ctrl-C closes the control connection, and the service cancels the rebuild it was running for us.
    process.once('SIGINT', () => {
      process.stderr.write('\ninterrupted: the rebuild is cancelled, the live read models keep serving\n');
      process.exit(130);
    });
    let current: string | undefined;
    const results = (await callOps('projections.rebuild', { ...target, ...(args.all ? { all: true } : { name: words[1] }) }, (raw) => {
      const progress = raw as unknown as RebuildProgress;
      if (current && current !== progress.projection) process.stderr.write('\n');
      current = progress.projection;
      process.stderr.write(progressBar(progress));
    })) as RebuildResult[];
    process.stderr.write('\n');
    for (const r of results) {
      console.log(`rebuilt ${r.projection}: ${r.events} events in ${r.seconds.toFixed(2)} s (${r.eventsPerSecond} events/s)`);
    }
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main()
  .then((code) => process.exit(code))
  .catch((error: Error) => {
    console.error(`error: ${error.message}`);
    process.exit(1);
  });
