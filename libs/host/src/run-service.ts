import 'reflect-metadata';
import { loadConfig } from '@pss/config';
import type { INestApplication } from '@nestjs/common';
import { createServiceApp, type ServiceAppOptions } from './service-app';

/** Longest a shutdown may take before the process gives up on it. */
const SHUTDOWN_GRACE_MS = 15_000;

/** The `main` of every process: configuration from the environment, listen, and a clear line if start-up fails. */
export function runService(name: string, modules: ServiceAppOptions['modules']): void {
  const config = loadConfig();
  createServiceApp({ name, modules, config })
    .then(async (app) => {
      stopOnSignals(app, name);
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

/**
 * SIGTERM and SIGINT close the application (HTTP stops accepting, subscriptions drain, checkpoints flush, the
 * event store closes), then the process exits 0: an orchestrator sees a clean stop.
 */
function stopOnSignals(app: INestApplication, name: string): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ level: 'log', context: name, message: 'shutting down', signal })}\n`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`${JSON.stringify({ level: 'error', context: name, message: 'shutdown failed', error: error.message })}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
