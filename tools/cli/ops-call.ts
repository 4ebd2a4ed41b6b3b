import 'reflect-metadata';
import { loadConfig } from '@pss/config';
import { isAnswering, OpsRegistry, runRemote, type OpsArgs, type OpsProgress } from '@pss/ops';
import { createServiceApp } from '@pss/host';
import { EMBEDDED_MODULES } from '../../apps/embedded/src/embedded.modules';

/**
 * Runs an ops command where the data lives: on the running service through its control socket (so a token
 * works, or stops working, at once), or, in embedded mode with no service running, on the service's own code
 * booted in this process for the one call.
 */
export async function callOps(command: string, args: OpsArgs, progress: OpsProgress = () => undefined): Promise<unknown> {
  const config = loadConfig();
  if (await isAnswering(config.opsSocket)) return runRemote(config.opsSocket, command, args, progress);
  if (config.mode !== 'embedded') {
    throw new Error(
      `no service answers on ${config.opsSocket}; run this inside a service container, e.g. ` +
        '`docker compose exec inventory npm run -s admin -- …`',
    );
  }
  const app = await createServiceApp({
    name: 'admin-cli',
    modules: EMBEDDED_MODULES,
    config: { ...config, logLevel: 'error' },
    background: false,
  });
  try {
    return await app.get(OpsRegistry).run(command, args, progress);
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
