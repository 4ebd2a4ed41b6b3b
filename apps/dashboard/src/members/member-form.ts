import type { Role } from '../access/roles';
import type { MemberDocument } from '../access/members.read-model';

/** What a member form may be refused for: a message key of the members catalogue. */
export type MemberFormError = 'members.error.email' | 'members.error.role' | 'members.error.stores';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: MemberFormError };

const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;
/** A store's checkbox is named `store_<id>`: repeated fields keep their first value only, distinct names all. */
export const STORE_FIELD_PREFIX = 'store_';

/**
 * The role a form asks for: `viewer`, or `store-owner` with at least one of the organization's own stores ticked
 * (a store id from elsewhere is refused, not dropped). The organization owner's role is never a form's: it moves
 * by a hand-over only.
 */
export function parseRole(form: Record<string, string>, organizationStoreIds: readonly string[]): Parsed<Role> {
  if (form.role === 'viewer') return { ok: true, value: { kind: 'viewer' } };
  if (form.role !== 'store-owner') return { ok: false, error: 'members.error.role' };
  const storeIds = Object.keys(form)
    .filter((field) => field.startsWith(STORE_FIELD_PREFIX))
    .map((field) => field.slice(STORE_FIELD_PREFIX.length));
  if (storeIds.length === 0 || storeIds.some((id) => !organizationStoreIds.includes(id))) return { ok: false, error: 'members.error.stores' };
  return { ok: true, value: { kind: 'store-owner', storeIds: [...storeIds].sort() } };
}

/** The invitation form: an address (compared lower-cased, as sign-in does) and a role. */
export function parseInvitation(form: Record<string, string>, organizationStoreIds: readonly string[]): Parsed<{ email: string; role: Role }> {
  const email = (form.email ?? '').trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) return { ok: false, error: 'members.error.email' };
  const role = parseRole(form, organizationStoreIds);
  return role.ok ? { ok: true, value: { email, role: role.value } } : role;
}

/** A member's last sign-in: the latest use of any of their passkeys (a step-up counts; a recovery code does not). */
export function lastSignIn(member: Pick<MemberDocument, 'passkeys'>): string | null {
  const uses = Object.values(member.passkeys).flatMap((passkey) => (passkey.lastUsedAt ? [passkey.lastUsedAt] : []));
  return uses.length ? uses.sort().at(-1)! : null;
}
