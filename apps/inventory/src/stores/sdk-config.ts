import { refusalDetail, SDK_CONFIG_CHOICES, SDK_CONFIG_RANGES, STORE_SETTINGS_REFUSALS, type SdkConfigView } from '@pss/contracts';

/** The SDK configuration as clients send it: every field optional, the spec's defaults filled in on creation. */
export type SdkConfigSettings = Omit<SdkConfigView, 'updated_at'>;
export type SdkConfigInput = Partial<SdkConfigSettings>;

export const SDK_CONFIG_FIELDS = [
  'mode',
  'calibration_seconds',
  'overlay_check_interval_ms',
  'installation_order_policy',
  'payment_methods',
  'sensitive_fields',
  'expected_iframe_origins',
  'allowed_service_workers',
  'gtm_containers',
  'developer_mode',
  'release_channel',
] as const satisfies readonly (keyof SdkConfigSettings)[];

/** The spec: what a create request that omits them shows. */
export const DEFAULT_SDK_CONFIG: SdkConfigSettings = {
  mode: 'monitor',
  calibration_seconds: 30,
  overlay_check_interval_ms: 2000,
  installation_order_policy: 'warn',
  payment_methods: [],
  sensitive_fields: null,
  expected_iframe_origins: [],
  allowed_service_workers: [],
  gtm_containers: [],
  developer_mode: false,
  release_channel: 'stable',
};

/** Picks the SDK config fields out of a request body (the API sends them flat, beside the profile). */
export function sdkConfigFields(input: Record<string, unknown>): SdkConfigInput {
  const picked: Record<string, unknown> = {};
  for (const field of SDK_CONFIG_FIELDS) if (input[field] !== undefined) picked[field] = input[field];
  return picked as SdkConfigInput;
}

/**
 * What a configuration breaks of the spec's limits, one message per field. The command checks it itself: the API's
 * request validation says the same first, but the dashboard sends the command without the API in between.
 */
export function sdkConfigRefusals(config: SdkConfigInput): Array<{ field: string; message: string }> {
  const refused: Array<{ field: string; message: string }> = [];
  for (const [field, [min, max]] of Object.entries(SDK_CONFIG_RANGES)) {
    const value = config[field as keyof typeof SDK_CONFIG_RANGES];
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) refused.push(refusalDetail(STORE_SETTINGS_REFUSALS, field, 'whole_between'));
  }
  for (const [field, allowed] of Object.entries(SDK_CONFIG_CHOICES)) {
    const value = config[field as keyof typeof SDK_CONFIG_CHOICES];
    if (value !== undefined && !(allowed as readonly string[]).includes(value)) refused.push(refusalDetail(STORE_SETTINGS_REFUSALS, field, 'one_of'));
  }
  if (config.developer_mode !== undefined && typeof config.developer_mode !== 'boolean') refused.push(refusalDetail(STORE_SETTINGS_REFUSALS, 'developer_mode', 'boolean'));
  return refused;
}
