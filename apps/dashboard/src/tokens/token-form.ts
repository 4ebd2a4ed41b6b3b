import { READ_ONLY_SHORTCUT, SCOPES, TOKEN_NAME_MAX, TOKEN_VALIDITY_DAYS, type IssueTokenRequest } from '@pss/contracts';
import type { MessageKey } from '../i18n/catalogue';

/** The validity select's values: no expiry or one of the spec's periods. */
export const NO_EXPIRY = 'none';
export const VALIDITY_CHOICES: readonly string[] = [NO_EXPIRY, ...TOKEN_VALIDITY_DAYS.map(String)];
/** Preselected: a token that ends by itself unless its owner asks otherwise (docs/decisions.md, issue 31). */
export const DEFAULT_VALIDITY = '90';

/** The checkboxes the form offers, shortcut first: each is its own field, since a repeated field keeps one value. */
export const SCOPE_CHOICES: readonly string[] = [READ_ONLY_SHORTCUT, ...SCOPES];
export const scopeField = (scope: string): string => `scope.${scope}`;

/** The form as typed, to show it again with its errors. */
export interface TokenFormValues {
  name: string;
  scopes: string[];
  validity: string;
}

export type TokenField = keyof TokenFormValues;
export type TokenFormErrors = Partial<Record<TokenField, { key: MessageKey; params?: Record<string, string | number> }>>;

export const EMPTY_TOKEN_FORM: TokenFormValues = { name: '', scopes: [], validity: DEFAULT_VALIDITY };

export type ParsedTokenForm = { values: TokenFormValues; errors: TokenFormErrors; request?: undefined } | { values: TokenFormValues; errors: TokenFormErrors; request: Omit<IssueTokenRequest, 'orgId'> };

/**
 * The create form's fields checked as the token decider checks them, so a person reads what to fix in their
 * language next to the field; `read-only` is sent as is, for the back end to expand as it does for any caller.
 */
export function parseTokenForm(form: Record<string, string>): ParsedTokenForm {
  const values: TokenFormValues = {
    name: (form.name ?? '').trim(),
    scopes: SCOPE_CHOICES.filter((scope) => form[scopeField(scope)] !== undefined),
    validity: form.validity ?? '',
  };
  const errors: TokenFormErrors = {};
  if (!values.name) errors.name = { key: 'tokens.error.name-required' };
  else if (values.name.length > TOKEN_NAME_MAX) errors.name = { key: 'tokens.error.name-too-long', params: { max: TOKEN_NAME_MAX } };
  if (!values.scopes.length) errors.scopes = { key: 'tokens.error.scopes-required' };
  if (!VALIDITY_CHOICES.includes(values.validity)) errors.validity = { key: 'tokens.error.validity' };
  if (Object.keys(errors).length) return { values, errors };
  const validityDays = values.validity === NO_EXPIRY ? null : Number(values.validity);
  return { values, errors, request: { name: values.name, scopes: values.scopes, validityDays } };
}
