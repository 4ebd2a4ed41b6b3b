/** `host` is `domain` itself or one of its subdomains (`js.stripe.com` under `stripe.com`, not `evilstripe.com`). */
export const isHostUnder = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`);

/**
 * Values keyed by domain, looked up by host suffix: a host finds the entry of the longest domain it is under,
 * so `cdnjs.cloudflare.com` finds cdnjs before `cloudflare.com` finds Cloudflare. Keys and hosts must already
 * be normalized host names (lower case, punycode); a domain listed twice is a data error.
 */
export class HostSuffixIndex<T> {
  private readonly byDomain = new Map<string, T>();

  constructor(entries: Iterable<readonly [domain: string, value: T]>) {
    for (const [domain, value] of entries) {
      if (this.byDomain.has(domain)) throw new Error(`${domain} is listed twice`);
      this.byDomain.set(domain, value);
    }
  }

  find(host: string): T | undefined {
    for (let suffix = host; ; suffix = suffix.slice(suffix.indexOf('.') + 1)) {
      const value = this.byDomain.get(suffix);
      if (value !== undefined) return value;
      if (!suffix.includes('.')) return undefined;
    }
  }
}
