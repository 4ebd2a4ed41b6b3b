import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { loadConfig } from '@pss/config';
import { isAnswering, OpsRegistry, runRemote, type OpsArgs, type OpsProgress } from '@pss/ops';
import { createServiceApp } from '@pss/host';
import { EMBEDDED_MODULES } from '@pss/embedded/src/embedded.modules';

/** The flag that names the data a stopped embedded service left, for the CLI to boot the service's code on. */
export const DATA_DIR_FLAG = 'data-dir';

/** Where to run the command cannot be settled: no service answers, and no (existing) data directory was named. */
export class NoOpsTarget extends Error {}

/**
 * Runs an ops command where the data lives: on the running service through its control socket (so a token
 * works, or stops working, at once), or, with `--data-dir DIR` and no service running there (embedded mode),
 * on the service's own code booted in this process on DIR for the one call. Never on a directory nobody named:
 * a CLI that guessed `./data` while the service runs with another DATA_DIR printed tokens that service rejects.
 */
export async function callOps(command: string, args: OpsArgs, progress: OpsProgress = () => undefined): Promise<unknown> {
  const { [DATA_DIR_FLAG]: dataDir, ...commandArgs } = args;
  if (dataDir === true || dataDir === '') throw new NoOpsTarget(`--${DATA_DIR_FLAG} needs a directory`);
  // A mistyped directory would otherwise become a fresh, empty service: the very mistake the flag is there to stop.
  if (typeof dataDir === 'string' && !existsSync(dataDir)) throw new NoOpsTarget(`--${DATA_DIR_FLAG} ${dataDir}: no such directory`);
  const config = loadConfig(typeof dataDir === 'string' ? { ...process.env, DATA_DIR: dataDir } : process.env);
  if (await isAnswering(config.opsSocket)) return runRemote(config.opsSocket, command, commandArgs, progress);
  if (config.mode !== 'embedded') {
    throw new NoOpsTarget(
      `no service answers on ${config.opsSocket}; run this inside a service container, e.g. ` +
        '`docker compose exec inventory npm run -s admin -- …`',
    );
  }
  if (dataDir === undefined) {
    throw new NoOpsTarget(
      `no service answers on ${config.opsSocket}: start it (npm start) and give this command the DATA_DIR or OPS_SOCKET ` +
        `the service has, or pass --${DATA_DIR_FLAG} DIR to act on the data of a stopped service`,
    );
  }
  const app = await createServiceApp({
    name: 'admin-cli',
    modules: EMBEDDED_MODULES,
    config: { ...config, logLevel: 'error' },
    background: false,
  });
  try {
    return await app.get(OpsRegistry).run(command, commandArgs, progress);
  } finally {
    await app.close();
  }
}
/** `--name value --flag` → `{name: 'value', flag: true}`; bare words are returned apart. */
export function parseArgs(argv: string[]): { words: string[]; args: OpsArgs } {
  const words: string[] = [];
  const args: OpsArgs = {};
  for (let i = 0; i < argv.length; i += 1) {
    const item = argv[i];
    if (!item.startsWith('--')) {
      words.push(item);
      continue;
    }
    const [name, inline] = item.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) args[name] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) args[name] = argv[++i];
    else args[name] = true;
  }
  return { words, args };
}
