import { randomInt } from 'node:crypto';
import { secretHash } from './secrets';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 without I, L, O, U: nothing to misread when typing a code from paper. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** `7k2m-x9qa-…`: 16 symbols of 5 bits, 80 bits each, enough that a plain hash cannot be reversed by guessing. */
function newCode(): string {
  const groups = Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
  return groups.join('-');
}

/** What a person typed, as it was issued: case, spaces and dashes ignored, the letters people confuse mapped. */
export function normalizeRecoveryCode(typed: string): string {
  const symbols = typed.toLowerCase().replace(/[\s-]/g, '').replace(/[o]/g, '0').replace(/[il]/g, '1');
  return symbols.match(new RegExp(`.{1,${GROUP_LENGTH}}`, 'g'))?.join('-') ?? '';
}

export const recoveryCodeHash = (code: string): string => secretHash(normalizeRecoveryCode(code));

/** Ten fresh codes to show once, and the hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: codes.map(recoveryCodeHash) };
}
