import { isIP } from 'node:net';
import { resolve } from 'node:path';

/**
 * All configuration comes from the environment, read once here, so the service, the admin CLI and the ops CLI
 * agree on where the data is. Every variable is listed in the README.
 */
export interface ServiceConfig {
  mode: 'embedded' | 'distributed';
  port: number;
  host: string;
  /** A listener of its own for `GET /metrics` (off the API port), or null to serve it on `port`. */
  metricsPort: number | null;
  dataDir: string;
  /** Control socket of the running process (admin and projections CLIs talk to it). */
  opsSocket: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  kafkaBrokers: string[];
  eventStoreUrl: string;
  mongoUrl: string;
  mongoDatabase: string;
  /** Public base URL of the API, used in links (snippets, Slack messages, signed URLs). */
  publicUrl: string;
  /** Where the SDK script is served from; embedded in the install snippets. */
  sdkScriptUrl: string;
  /** Hosts webhooks may reach although they resolve to private addresses (tests, on-premises receivers). */
  webhookAllowHosts: string[];
  /** Maximum wait for the read models to reach a write's position before answering (read-your-writes). */
  readYourWritesTimeoutMs: number;
  requestTimeoutMs: number;
  /** Requests per minute per API token, per gateway process. */
  rateLimitPerMinute: number;
  /** SDK batches per minute per store. */
  sdkRateLimitPerMinute: number;
  /** On-demand report snapshots one organization may have in the making at once (per reports process). */
  reportGenerationsConcurrent: number;
  /** On-demand report snapshots one organization may start per minute (per reports process). */
  reportGenerationsPerMinute: number;
  /** Days an on-demand snapshot's data is kept; then retention removes it, keeping its record on the chain. */
  reportOnDemandRetentionDays: number;
  /**
   * The proxies whose `X-Forwarded-For` names the client, as Fastify's `trustProxy` takes them: false (none: the
   * peer is the client), a number of hops, or addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /**
   * The resolvers domain verification asks for TXT records (`ip` or `ip:port`, IPv6 as `[ip]:port`), as
   * `Resolver.setServers` takes them; empty: the system's.
   */
  dnsServers: string[];
}

const list = (value: string | undefined): string[] =>
  (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

function integer(name: string, value: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (!allowed.includes(value as T)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** proxy-addr's names for ranges (127.0.0.0/8 and ::1; 169.254.0.0/16 and fe80::/10; private and fc00::/7). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address with a prefix length or netmask, or a range name: what proxy-addr accepts. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (/^[0-9]{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return isIP(prefix) === family;
}

/**
 * TRUST_PROXY: unset, no proxy is trusted and `X-Forwarded-For` is ignored (a client would otherwise pick its own
 * address, and escape a limit per address); a number trusts that many hops; else the addresses and ranges of the
 * proxies. Trusting every peer is not offered: it is the spoofable setting this variable replaces.
 */
function trustedProxies(value: string | undefined): ServiceConfig['trustProxy'] {
  if (value === undefined || value.trim() === '') return false;
  if (/^[0-9]+$/.test(value.trim())) return integer('TRUST_PROXY', value.trim(), 0, 0, 100);
  const entries = list(value);
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length > 0) {
    throw new Error(`TRUST_PROXY must be a number of hops or comma-separated addresses and CIDR ranges, got "${wrong.join(', ')}"`);
  }
  return entries;
}

const isPort = (port: string | undefined): boolean => port === undefined || (/^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535);

/** `ip`, `ip:port` or `[ipv6]:port`: addresses only, as a resolver named by a host name would itself need resolving. */
function isDnsServer(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]) === 6 && isPort(bracketed[2]);
  if (isIP(entry) !== 0) return true;
  const [address, port, ...rest] = entry.split(':');
  return rest.length === 0 && isIP(address) === 4 && isPort(port);
}

function dnsServers(value: string | undefined): string[] {
  const wrong = list(value).filter((entry) => !isDnsServer(entry));
  if (wrong.length > 0) throw new Error(`DNS_SERVERS must be comma-separated IP addresses, each with an optional :port, got "${wrong.join(', ')}"`);
  return list(value);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const dataDir = resolve(env.DATA_DIR || './data');
  const port = integer('PORT', env.PORT, 3000);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    mode: oneOf('MODE', env.MODE, ['embedded', 'distributed'] as const, 'embedded'),
    port,
    host: env.HOST || '0.0.0.0',
    metricsPort: env.METRICS_PORT ? integer('METRICS_PORT', env.METRICS_PORT, 0, 1, 65535) : null,
    dataDir,
    opsSocket: resolve(env.OPS_SOCKET || `${dataDir}/ops.sock`),
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, ['debug', 'info', 'warn', 'error'] as const, 'info'),
    kafkaBrokers: list(env.KAFKA_BROKERS || 'localhost:9092'),
    eventStoreUrl: env.EVENTSTORE_URL || 'esdb://localhost:2113?tls=false',
    mongoUrl: env.MONGO_URL || 'mongodb://localhost:27017/?replicaSet=rs0',
    mongoDatabase: env.MONGO_DATABASE || 'pss',
    publicUrl,
    sdkScriptUrl: env.SDK_SCRIPT_URL || `${publicUrl}/sdk/v1/sdk.js`,
    webhookAllowHosts: list(env.WEBHOOK_ALLOW_HOSTS),
    readYourWritesTimeoutMs: integer('READ_YOUR_WRITES_TIMEOUT_MS', env.READ_YOUR_WRITES_TIMEOUT_MS, 5000),
    requestTimeoutMs: integer('BUS_REQUEST_TIMEOUT_MS', env.BUS_REQUEST_TIMEOUT_MS, 10000),
    // The upper bound keeps the rate limiter's bucket arithmetic in exact integers.
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 1200, 1, 1_000_000_000),
    sdkRateLimitPerMinute: integer('SDK_RATE_LIMIT_PER_MINUTE', env.SDK_RATE_LIMIT_PER_MINUTE, 6000, 1, 1_000_000_000),
    reportGenerationsConcurrent: integer('REPORT_GENERATIONS_CONCURRENT', env.REPORT_GENERATIONS_CONCURRENT, 2, 1, 1000),
    reportGenerationsPerMinute: integer('REPORT_GENERATIONS_PER_MINUTE', env.REPORT_GENERATIONS_PER_MINUTE, 10, 1, 1_000_000),
    reportOnDemandRetentionDays: integer('REPORT_ON_DEMAND_RETENTION_DAYS', env.REPORT_ON_DEMAND_RETENTION_DAYS, 90, 1, 36_500),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    dnsServers: dnsServers(env.DNS_SERVERS),
  };
}

export const SERVICE_CONFIG = Symbol('ServiceConfig');
