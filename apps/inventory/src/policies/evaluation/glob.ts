/** Policies' path globs are the payment pages' (contracts), so both read a pattern alike. */
export { globToRegExp, matchesGlob } from '@pss/contracts';
