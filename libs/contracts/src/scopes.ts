/** The spec's scope table. Each operation needs exactly one scope; there is no hierarchy. */
export const SCOPES = [
  'stores:read',
  'stores:write',
  'pages:write',
  'scripts:read',
  'scripts:review',
  'rules:write',
  'policies:read',
  'policies:write',
  'alerts:read',
  'alerts:write',
  'reports:read',
  'reports:generate',
  'webhooks:manage',
  'orgs:manage',
  'usage:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The dashboard's `read-only` shortcut. */
export const READ_ONLY_SCOPES: Scope[] = ['stores:read', 'scripts:read', 'policies:read', 'alerts:read', 'reports:read', 'usage:read'];
