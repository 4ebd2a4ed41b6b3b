import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { ServiceConfig } from '@pss/config';

const LEVELS: Record<ServiceConfig['logLevel'], LogLevel[]> = {
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  info: ['fatal', 'error', 'warn', 'log'],
  warn: ['fatal', 'error', 'warn'],
  error: ['fatal', 'error'],
};

/** One JSON object per line, for log shippers; never a secret in it (callers log ids and prefixes only). */
export const jsonLogger = (config: ServiceConfig, service: string): ConsoleLogger =>
  new ConsoleLogger(service, { json: true, logLevels: LEVELS[config.logLevel] });
