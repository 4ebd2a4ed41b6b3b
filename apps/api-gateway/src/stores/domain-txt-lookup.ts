import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { DomainError } from '@pss/kernel';

/** One query's wait, and its tries: a resolver that drops packets gets a second chance. */
const ATTEMPT_MS = 2000;
const TRIES = 2;
/** The whole lookup, whatever the resolver's own retries do: a hanging DNS must not hold the request. */
const LOOKUP_MS = 5000;
const RETRY_AFTER_SECONDS = 30;
/** The name exists without TXT records, or does not exist: both mean no challenge is published. */
const NOTHING_PUBLISHED = new Set(['ENODATA', 'ENOTFOUND']);

/** The TXT strings of a domain's challenge record, from the resolvers DNS_SERVERS names (else the system's). */
@Injectable()
export class DomainTxtLookup {
  constructor(@Inject(SERVICE_CONFIG) private readonly config: ServiceConfig) {}

  async txt(name: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: ATTEMPT_MS, tries: TRIES });
    if (this.config.dnsServers.length > 0) resolver.setServers(this.config.dnsServers);
    const deadline = setTimeout(() => resolver.cancel(), LOOKUP_MS);
    try {
      // A TXT record is one or more strings of up to 255 bytes each; its value is their concatenation (RFC 7208 3.3).
      return (await resolver.resolveTxt(name)).map((strings) => strings.join(''));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NOTHING_PUBLISHED.has(code)) return [];
      const why = code === 'ECANCELLED' || code === 'ETIMEOUT' ? 'timed out' : 'failed';
      throw new DomainError('service_unavailable', `The DNS lookup of ${name} ${why}; retry shortly`, undefined, RETRY_AFTER_SECONDS);
    } finally {
      clearTimeout(deadline);
    }
  }
}
