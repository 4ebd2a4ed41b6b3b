import type { DomainError } from '@pss/kernel';
import { ALREADY_MEMBER_MESSAGE, HAND_OVER_BY_OWNER_MESSAGE, HAND_OVER_TO_ANOTHER_MESSAGE, OWNER_ROLE_MESSAGE } from '../access/access.decider';
import type { Translate } from '../i18n/catalogue';
import { refusalText, type KnownRefusal } from '../i18n/refusals';

/**
 * Every refusal the access decider answers to the members' commands (invite, change a role, remove, hand over),
 * as the members pages say it. `not_found` is one refusal whatever it names: the member the form was about left,
 * or never joined (an invited person is no member until they accept), between the page and the press.
 */
export const MEMBER_REFUSALS: readonly KnownRefusal[] = [
  { code: 'conflict', message: ALREADY_MEMBER_MESSAGE, key: 'members.error.already' },
  { code: 'validation_error', message: OWNER_ROLE_MESSAGE, key: 'members.error.owner-role' },
  { code: 'validation_error', message: HAND_OVER_TO_ANOTHER_MESSAGE, key: 'members.error.hand-over-self' },
  { code: 'forbidden', message: HAND_OVER_BY_OWNER_MESSAGE, key: 'members.owner-only' },
  { code: 'not_found', key: 'members.error.not-member' },
  // Past its retries the access stream's optimistic concurrency gives up (the API's 503): another change to the
  // members won the race, which the page answers as the conflict it is.
  { code: 'service_unavailable', key: 'members.error.busy' },
];

/** The page's status per refusal code; a code the decider may add later is a refusal of the request's state. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = { validation_error: 400, forbidden: 403, not_found: 404, conflict: 409, service_unavailable: 409 };
const UNKNOWN_REFUSAL_STATUS = 409;

/** What a members page answers to a refusal of the access decider: always a 4xx, in the person's language. */
export function memberRefusal(t: Translate, refusal: DomainError): { status: number; message: string } {
  return { status: STATUS_BY_CODE[refusal.code] ?? UNKNOWN_REFUSAL_STATUS, message: refusalText(t, refusal, MEMBER_REFUSALS) };
}
