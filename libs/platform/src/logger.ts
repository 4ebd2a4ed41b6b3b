import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import type { ServiceConfig } from '@pss/config';

/** The level names log shippers know (syslog/pino style); Nest's `log` and `verbose` map onto them. */
export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug';

const SEVERITY: Record<LogLevelName, number> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * Nest announces every module, controller and route at start-up (about a hundred lines): useful when debugging
 * the wiring, noise otherwise. Their lines are debug; the process prints its own short summary instead.
 */
const BOOT_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

export type LogWrite = (line: string) => void;

const stdout: LogWrite = (line) => process.stdout.write(line);

/**
 * One JSON object per line, for log shippers: `time`, `level` (a standard name), `service`, `context`,
 * `message` (always a string) and the fields a caller passed in an object. Never a secret in it: callers log ids
 * and prefixes only.
 */
export class JsonLogger implements LoggerService {
  private threshold: number;

  constructor(
    private readonly service: string,
    level: ServiceConfig['logLevel'] = 'info',
    private readonly write: LogWrite = stdout,
  ) {
    this.threshold = SEVERITY[level];
  }

  log(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    this.emit(context && BOOT_CHATTER.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    const stack = rest.length >= 2 ? rest[0] : undefined;
    this.emit('error', message, context, typeof stack === 'string' ? { stack } : undefined);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.emit('warn', message, contextOf(rest));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, contextOf(rest));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, contextOf(rest));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.emit('fatal', message, contextOf(rest));
  }

  /** Nest passes its own level list (`log` included) when an application changes levels at run time. */
  setLogLevels(levels: NestLogLevel[]): void {
    const named = levels.map((level): LogLevelName => (level === 'log' ? 'info' : level === 'verbose' ? 'debug' : level));
    this.threshold = Math.max(...named.map((level) => SEVERITY[level]));
  }

  /** Whether a line at `level` would be written: callers skip building what would be dropped. */
  writes(level: LogLevelName): boolean {
    return SEVERITY[level] <= this.threshold;
  }

  /** Writes one line at `level` with `fields` beside the message; what the access log and start-up summary use. */
  emit(level: LogLevelName, message: unknown, context?: string, fields?: Record<string, unknown>): void {
    if (!this.writes(level)) return;
    const { text, extra } = splitMessage(message);
    const line = { time: new Date().toISOString(), level, service: this.service, context, message: text, ...extra, ...fields };
    this.write(`${JSON.stringify(line)}\n`);
  }
}

/** Nest passes the context last: `logger.log(message, context)`, `logger.error(message, stack, context)`. */
const contextOf = (rest: unknown[]): string | undefined => {
  const last = rest[rest.length - 1];
  return typeof last === 'string' ? last : undefined;
};

/** `{message, ...fields}` objects become the message and fields beside it; errors their message and stack. */
function splitMessage(message: unknown): { text: string; extra?: Record<string, unknown> } {
  if (typeof message === 'string') return { text: message };
  if (message instanceof Error) return { text: message.message, extra: { stack: message.stack } };
  if (message && typeof message === 'object') {
    const { message: text, ...extra } = message as Record<string, unknown>;
    return { text: typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text), extra };
  }
  return { text: String(message) };
}

export const jsonLogger = (config: ServiceConfig, service: string): JsonLogger => new JsonLogger(service, config.logLevel);
