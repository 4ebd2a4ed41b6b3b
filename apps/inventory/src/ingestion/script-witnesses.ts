import { LruCache } from '@pss/kernel';

/** New scripts whose first reporting address this process remembers (a script id and an address: about 15 MB). */
export const SCRIPT_WITNESSES_CACHED = 100_000;

/**
 * Which client address (an IPv6 /64) first reported each new script, so a script a second address reports is
 * known to be seen by more than one: a skimmer runs for every shopper, while one address's junk is its own.
 */
export class ScriptWitnesses {
  private readonly first = new LruCache<string, string>(SCRIPT_WITNESSES_CACHED);

  /** Whether an address other than `client` reported the script before; the first address is remembered. */
  corroborates(scriptId: string, client: string | undefined): boolean {
    if (client === undefined) return false; // a gateway older than the field tells no address apart
    const first = this.first.get(scriptId);
    if (first === undefined) this.first.set(scriptId, client);
    return first !== undefined && first !== client;
  }
}
