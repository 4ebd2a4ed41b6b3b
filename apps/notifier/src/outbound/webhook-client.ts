import { lookup } from 'node:dns/promises';
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { ATTEMPT_ERRORS } from '@pss/contracts';
import type { AttemptOutcome } from '../delivery/delivery.decider';
import { blockedReason, BlockedAddressError } from './address-guard';
import { httpError, networkError, QUOTED_BODY_CHARS } from './attempt-errors';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name resolution, replaceable in tests (a host name that resolves to loopback without touching DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface WebhookClientOptions {
  /** The whole attempt: resolution, connection, TLS, the answer and its body (spec: 8 seconds). */
  timeoutMs: number;
  /** CA certificates trusted besides the usual ones (tests, on-premises receivers); TLS is always verified. */
  extraCaPems: string[];
  /** Hosts reached even though they resolve to private addresses (WEBHOOK_ALLOW_HOSTS). */
  allowHosts: string[];
  resolve?: Resolver;
}

/** A larger answer is not read to its end: the connection is dropped instead of reused. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs webhook attempts over HTTPS. Redirects are not followed (a 3xx is a failure like any non-2xx). Every
 * address is checked when the connection is made, not before, so a host that resolves elsewhere the second
 * time (DNS rebinding) still reaches only an address that was checked: the request's own `lookup` resolves,
 * refuses when any address is private, loopback, link-local, multicast or reserved, and connects to the ones it
 * checked. Connections are kept alive per endpoint.
 */
export class WebhookClient {
  private readonly agent: Agent;
  private readonly allowHosts: ReadonlySet<string>;
  private readonly resolve: Resolver;

  constructor(private readonly options: WebhookClientOptions) {
    // Extra CAs are added to the usual ones; without any, Node's own store (NODE_EXTRA_CA_CERTS included) applies.
    // As a secure context, not `ca`: the agent names its pools after `ca`, every root certificate on every request.
    const trust = options.extraCaPems.length ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...options.extraCaPems] }) } : {};
    this.agent = new Agent({ keepAlive: true, scheduling: 'lifo', ...trust });
    this.allowHosts = new Set(options.allowHosts.map(bareHost));
    this.resolve = options.resolve ?? systemResolver;
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { delivered: false, error: 'the URL is not valid' };
    }
    if (target.protocol !== 'https:') return { delivered: false, error: 'the URL is not https' };
    const host = bareHost(target.hostname);
    const allowed = this.allowHosts.has(host);
    // Node connects to an IP literal without any lookup: it is checked here, in whatever spelling it came.
    const reason = isIP(host) && !allowed ? blockedReason(host) : undefined;
    if (reason) return { delivered: false, error: ATTEMPT_ERRORS.blocked };
    return this.send(target, host, allowed, headers, body);
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private send(target: URL, host: string, allowed: boolean, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      let timedOut = false;
      const settle = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const failed = (error: Error) => settle({ delivered: false, error: networkError(error, timedOut) });
      const outgoing = request(
        {
          method: 'POST',
          host,
          port: target.port || 443,
          path: `${target.pathname}${target.search}`,
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          agent: this.agent,
          lookup: this.lookupFor(allowed),
        },
        (answer) => {
          const status = answer.statusCode ?? 0;
          const quoted: Buffer[] = [];
          let size = 0;
          const outcome = (): AttemptOutcome =>
            status >= 200 && status < 300 ? { delivered: true, status } : { delivered: false, error: httpError(status, Buffer.concat(quoted)) };
          answer.on('data', (chunk: Buffer) => {
            if (size < QUOTED_BODY_CHARS * 4) quoted.push(chunk);
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              settle(outcome());
              answer.destroy();
            }
          });
          answer.on('end', () => settle(outcome()));
          answer.on('error', failed);
          answer.on('close', () => failed(new Error('the connection closed before the answer ended')));
        },
      );
      const timer = setTimeout(() => {
        timedOut = true;
        outgoing.destroy(new Error('timeout'));
      }, this.options.timeoutMs);
      outgoing.on('error', failed);
      outgoing.end(body);
    });
  }

  private lookupFor(allowed: boolean): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname)
        .then((addresses) => {
          if (!allowed) {
            for (const { address } of addresses) {
              const reason = blockedReason(address);
              if (reason) throw new BlockedAddressError(hostname, address, reason);
            }
          }
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
          const usable = family ? addresses.filter((address) => address.family === family) : addresses;
          if (usable.length === 0) throw Object.assign(new Error(`${hostname} has no address to connect to`), { code: 'ENOTFOUND' });
          if (options.all) callback(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        })
        .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
    };
  }
}

/** `[::1]` → `::1`, `Example.COM.` → `example.com`: how hosts are compared with WEBHOOK_ALLOW_HOSTS. */
const bareHost = (host: string): string => host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
