import { SECURITY_HEADERS } from '@pss/sdk-contract';
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
