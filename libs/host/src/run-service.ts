import 'reflect-metadata';
import { loadConfig } from '@pss/config';
import { createServiceApp, type ServiceAppOptions } from './service-app';

/** The `main` of every process: configuration from the environment, listen, and a clear line if start-up fails. */
export function runService(name: string, modules: ServiceAppOptions['modules']): void {
  const config = loadConfig();
  createServiceApp({ name, modules, config })
    .then(async (app) => {
      await app.listen(config.port, config.host);
      process.stdout.write(
        `${JSON.stringify({ level: 'log', context: name, message: `listening on port ${config.port}`, mode: config.mode, data_dir: config.dataDir })}\n`,
      );
    })
    .catch((error: Error) => {
      process.stderr.write(`${JSON.stringify({ level: 'fatal', context: name, message: 'start-up failed', error: error.message, stack: error.stack })}\n`);
      process.exit(1);
    });
}
