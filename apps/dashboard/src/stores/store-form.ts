import { STORE_ENVIRONMENTS, STORE_SETTINGS_REFUSALS, type StoreDocument, type StoreEnvironment } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import type { Translate } from '../i18n/catalogue';
import { fieldRefusalText } from '../i18n/refusals';

/**
 * The store forms as a person fills them, turned into the store commands' input. The form only splits text into
 * the command's shape; what is allowed is the command's to say (its validation errors come back per field).
 */

/** The new store form's fields, as typed. */
export interface NewStoreValues {
  domain: string;
  environment: string;
  name: string;
  /** One page per line: its path pattern, then its payment methods (`/checkout/* pix card`). */
  payment_pages: string;
  /** One recipient per line: method, key, then an optional label (`pix 12345678900 Loja`). */
  recipients: string;
}

/** The SDK settings form's fields, as typed: numbers stay text until the command judges them. */
export interface SdkSettingsValues {
  mode: string;
  calibration_seconds: string;
  overlay_check_interval_ms: string;
  installation_order_policy: string;
  release_channel: string;
}

export const BLANK_NEW_STORE: NewStoreValues = { domain: '', environment: 'production', name: '', payment_pages: '', recipients: '' };

/** A text's lines as words (split at spaces, commas and semicolons), blank lines left out. */
const wordsPerLine = (text: string): string[][] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim().split(/[\s,;]+/).filter(Boolean))
    .filter((words) => words.length > 0);

/** A form's fields as typed, each present (a field the browser did not send is blank). */
const typed = <Field extends string>(form: Record<string, string>, fields: readonly Field[]): Record<Field, string> =>
  Object.fromEntries(fields.map((field) => [field, form[field] ?? ''])) as Record<Field, string>;

export const newStoreValues = (form: Record<string, string>): NewStoreValues => typed(form, ['domain', 'environment', 'name', 'payment_pages', 'recipients']);

/** The create command's input (POST /stores's body) from the form. An environment that is none (a forged form) is left to the command's default, production. */
export function createStoreInput(values: NewStoreValues) {
  return {
    domain: values.domain.trim(),
    environment: (STORE_ENVIRONMENTS as readonly string[]).includes(values.environment) ? (values.environment as StoreEnvironment) : undefined,
    ...(values.name.trim() ? { name: values.name.trim() } : {}),
    payment_pages: wordsPerLine(values.payment_pages).map(([url_pattern, ...payment_methods]) => ({ url_pattern, payment_methods })),
    // A label may hold spaces: everything after the key, as typed.
    recipients: values.recipients
      .split(/\r?\n/)
      .map((line) => line.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([method, key = '', ...label]) => ({ method, key, ...(label.length ? { label: label.join(' ') } : {}) })),
  };
}

export const sdkSettingsOf = (store: Pick<StoreDocument, 'sdk_config'>): SdkSettingsValues => ({
  mode: store.sdk_config?.mode ?? 'monitor',
  calibration_seconds: String(store.sdk_config?.calibration_seconds ?? ''),
  overlay_check_interval_ms: String(store.sdk_config?.overlay_check_interval_ms ?? ''),
  installation_order_policy: store.sdk_config?.installation_order_policy ?? 'warn',
  release_channel: store.sdk_config?.release_channel ?? 'stable',
});

export const sdkSettingsValues = (form: Record<string, string>): SdkSettingsValues =>
  typed(form, ['mode', 'calibration_seconds', 'overlay_check_interval_ms', 'installation_order_policy', 'release_channel']);

/** A number as typed: a blank or a word is NaN, which the command refuses as not a whole number in its range. */
const typedNumber = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/** The update command's SDK configuration (PATCH /stores/{id}'s fields) from the settings form. */
export const sdkSettingsInput = (values: SdkSettingsValues) => ({
  mode: values.mode,
  calibration_seconds: typedNumber(values.calibration_seconds),
  overlay_check_interval_ms: typedNumber(values.overlay_check_interval_ms),
  installation_order_policy: values.installation_order_policy,
  release_channel: values.release_channel,
});

/**
 * A refusal's messages by the form field they are about (`payment_pages.2.url_pattern` is the pages field), in the
 * person's language (the command's words for a refusal the store settings do not list); undefined when the refusal
 * is no validation error, which the page shows whole.
 */
export function fieldRefusals(t: Translate, error: unknown): Record<string, string[]> | undefined {
  if (!(error instanceof DomainError) || error.code !== 'validation_error' || !error.details?.length) return undefined;
  const byField: Record<string, string[]> = {};
  for (const detail of error.details) {
    const field = (detail.field ?? '').split('.')[0] || 'form';
    (byField[field] ??= []).push(fieldRefusalText(t, detail, STORE_SETTINGS_REFUSALS));
  }
  return byField;
}
