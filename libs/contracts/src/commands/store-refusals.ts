import type { FieldRefusal } from './field-refusals';

/** Pages a store may have in all (the spec caps one request at 50). */
export const MAX_PAYMENT_PAGES = 200;

/** The spec's limits of the SDK configuration (SDK config): ranges of the numbers, values of the choices. */
export const SDK_CONFIG_RANGES = { calibration_seconds: [10, 120], overlay_check_interval_ms: [500, 60000] } as const;
export const SDK_CONFIG_CHOICES = { mode: ['monitor', 'block'], installation_order_policy: ['warn', 'silent'], release_channel: ['stable', 'latest'] } as const;

/**
 * What the store commands refuse in a store's settings, by field and reason. A list item's field is named without its
 * index (`payment_pages.url_pattern` for `payment_pages.2.url_pattern`).
 */
export const STORE_SETTINGS_REFUSALS: readonly FieldRefusal[] = [
  ...Object.entries(SDK_CONFIG_RANGES).map(([field, [min, max]]) => ({ field, reason: 'whole_between', message: `${field} must be a whole number from ${min} to ${max}`, params: { min, max } })),
  ...Object.entries(SDK_CONFIG_CHOICES).map(([field, allowed]) => ({ field, reason: 'one_of', message: `${field} must be one of: ${allowed.join(', ')}`, params: { values: allowed.join(', ') } })),
  { field: 'developer_mode', reason: 'boolean', message: 'developer_mode must be a boolean value' },
  { field: 'payment_pages.url_pattern', reason: 'page_pattern', message: 'url_pattern must be a path (glob) starting with /, e.g. /checkout/*' },
  { field: 'payment_pages', reason: 'too_many', message: `a store has at most ${MAX_PAYMENT_PAGES} payment pages`, params: { max: MAX_PAYMENT_PAGES } },
  { field: 'recipients.method', reason: 'method_form', message: 'method must be 1 to 32 letters, digits, _ or -, e.g. pix' },
];
