import { createHash, randomBytes } from 'node:crypto';
import { DomainError, printable } from '@pss/kernel';

/**
 * What proves a store's domain (issue 29, item 9d): a TXT record its owner publishes, `pss-verify=<value>` at
 * `_pss-challenge.<domain>`. The value is the store's own, so a record published for one store proves nothing
 * for another store claiming the same domain.
 */
export interface DomainChallenge {
  record: string;
  value: string;
}

export const challengeRecord = (domain: string): string => `_pss-challenge.${domain}`;

export const newChallengeValue = (): string => `pss-verify=${randomBytes(16).toString('hex')}`;

/**
 * A production store's challenge: the one it was created with, or, for a store created before there were any,
 * one derived from its id (the value needs no secrecy, only to be the store's own). Staging domains are local
 * names, unique within their organization only, and have none.
 */
export function challengeOf(store: { storeId: string; domain: string; environment?: string; domainChallenge?: DomainChallenge }): DomainChallenge | undefined {
  if (store.environment === 'staging') return undefined;
  return (
    store.domainChallenge ?? {
      record: challengeRecord(store.domain),
      value: `pss-verify=${createHash('sha256').update(`pss domain challenge ${store.storeId}`).digest('hex').slice(0, 32)}`,
    }
  );
}

/** TXT strings shown back at most: a zone may hold many, and their text is the zone owner's, not ours. */
const SHOWN_VALUES = 5;
const SHOWN_CHARS = 120;

/**
 * The refusal when the record does not hold the value: which record and value were expected and what DNS
 * answered, made printable (a TXT string may carry control or bidi characters) and cut.
 */
export function challengeNotMet({ record, value }: DomainChallenge, found: readonly string[]): DomainError {
  const shown = found.slice(0, SHOWN_VALUES).map((text) => Array.from(printable(text)).slice(0, SHOWN_CHARS).join(''));
  const answered = shown.length ? `found ${shown.map((text) => JSON.stringify(text)).join(', ')}${found.length > SHOWN_VALUES ? ` and ${found.length - SHOWN_VALUES} more` : ''}` : 'found no TXT record';
  return new DomainError('domain_not_verified', `Expected a TXT record ${record} with the value ${value}; ${answered}`, [
    // The error shape's details are a field and a message, nothing else: the message says what the record held.
    { field: 'domain', message: `${record} does not hold ${value}; ${answered}` },
  ]);
}
