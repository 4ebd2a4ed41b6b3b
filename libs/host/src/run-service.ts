import 'reflect-metadata';
import type { Server } from 'node:http';
import { loadConfig, type ServiceConfig } from '@pss/config';
import type { INestApplication } from '@nestjs/common';
import { listenForMetrics, Metrics } from '@pss/metrics';
import { jsonLogger, PlatformLifecycle, type JsonLogger } from '@pss/platform';
import { createServiceApp, type ServiceAppOptions } from './service-app';

/** Longest a shutdown may take before the process gives up on it. */
const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The `main` of every process: configuration from the environment, listen, then a short summary (the last line
 * says ready, with the URL); a clear line if start-up fails.
 */
export function runService(name: string, modules: ServiceAppOptions['modules']): void {
  const config = loadConfig();
  const logger = jsonLogger(config, name);
  logger.emit('info', `starting ${name} (${config.mode} mode)`, name, { mode: config.mode, data_dir: config.dataDir });
  createServiceApp({ name, modules, config })
    .then(async (app) => {
      const metricsServer = config.metricsPort === null ? undefined : await listenForMetrics(app.get(Metrics), config.metricsPort, config.host);
      stopOnSignals(app, name, logger, metricsServer);
      await app.listen(config.port, config.host);
      logger.emit('info', `adapters: ${adapterSummary(config)}`, name);
      logger.emit('info', `metrics: ${metricsLocation(config)}`, name);
      const catchUp = app.get(PlatformLifecycle).catchUp;
      const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${config.port}`;
      logger.emit('info', `ready on ${url}`, name, { mode: config.mode, port: config.port, data_dir: config.dataDir, public_url: config.publicUrl, catch_up: catchUp });
    })
    .catch((error: Error) => {
      logger.emit('fatal', `start-up failed: ${error.message}`, name, { stack: error.stack });
      process.exit(1);
    });
}

/** What the process runs on, without credentials (URLs are reduced to their hosts). */
function adapterSummary(config: ServiceConfig): string {
  if (config.mode === 'embedded') return `event store SQLite (${config.dataDir}/events.sqlite), read models in memory, bus in-process`;
  return `event store EventStoreDB (${hostOf(config.eventStoreUrl)}), read models MongoDB (${hostOf(config.mongoUrl)}/${config.mongoDatabase}), bus Kafka (${config.kafkaBrokers.join(', ')})`;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'unparsable URL';
  }
};

const metricsLocation = (config: ServiceConfig): string =>
  config.metricsPort === null ? `GET /metrics on port ${config.port} (set METRICS_PORT to move it off the API port)` : `GET /metrics on port ${config.metricsPort} only`;

/**
 * SIGTERM and SIGINT close the application (HTTP stops accepting, subscriptions drain, checkpoints flush, the
 * event store closes), then the process exits 0: an orchestrator sees a clean stop.
 */
function stopOnSignals(app: INestApplication, name: string, logger: JsonLogger, metricsServer?: Server): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.emit('info', 'shutting down', name, { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    metricsServer?.close();
    app.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.emit('error', `shutdown failed: ${error.message}`, name);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
