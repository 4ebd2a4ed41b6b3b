/** The response headers whose change PCI DSS 11.6.1 wants detected on a payment page. */
export const SECURITY_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'strict-transport-security',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'cross-origin-resource-policy',
] as const;

export interface HeaderChange {
  name: string;
  change_type: 'added' | 'removed' | 'changed';
  old_value: string | null;
  new_value: string | null;
}

/** Only the security headers, lower-case names, values with runs of white space folded. */
export function securityHeaders(headers: Record<string, string>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of SECURITY_HEADERS) {
    const value = headers[name];
    if (value !== undefined) picked[name] = value.replace(/\s+/g, ' ').trim();
  }
  return picked;
}

export function diffHeaders(before: Record<string, string>, after: Record<string, string>): HeaderChange[] {
  const changes: HeaderChange[] = [];
  for (const name of SECURITY_HEADERS) {
    const old = before[name] ?? null;
    const value = after[name] ?? null;
    if (old === value) continue;
    changes.push({ name, change_type: old === null ? 'added' : value === null ? 'removed' : 'changed', old_value: old, new_value: value });
  }
  return changes;
}
