import { STORE_SUSPENDED_MESSAGE, type AlertSeverity, type EmailChannelChanges, type EmailChannelInput } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { REQUIRES_ORGANIZATION_OWNER, requiresStoreOwner, type Requirement } from '../access/roles';
import type { KnownRefusal } from '../i18n/refusals';

/** The scope select's value for a channel of the whole organization (any other value is a store id). */
export const ORGANIZATION_WIDE = 'organization';

/** The fields of the channel form an error can point at. */
export const CHANNEL_FIELDS = ['name', 'recipients', 'min_severity'] as const;
export type ChannelField = (typeof CHANNEL_FIELDS)[number];

/**
 * Recipients as a person types or pastes them: one per line, or separated by commas, semicolons or spaces. The
 * notifier validates the addresses and their number; the form only splits.
 */
export const recipientsOf = (text: string | undefined): string[] => (text ?? '').split(/[\s,;]+/).filter(Boolean);

/** null: the whole organization. */
export const scopeOf = (value: string | undefined): string | null => (!value || value === ORGANIZATION_WIDE ? null : value);

/**
 * Who may create, change, delete or test a channel: the organization owner any; a store owner the channels of
 * the stores listed on them, never an organization-wide one (it would mail about stores that are not theirs).
 */
export const channelRequirement = (storeId: string | null): Requirement => (storeId === null ? REQUIRES_ORGANIZATION_OWNER : requiresStoreOwner(storeId));

/** An unchecked box is absent from a form: absent means inactive. */
const settingsOf = (form: Record<string, string>): Required<EmailChannelChanges> => ({
  name: form.name ?? '',
  recipients: recipientsOf(form.recipients),
  // Sent as chosen: the notifier refuses a severity that is not one, naming the field.
  min_severity: form.min_severity as AlertSeverity,
  active: form.active === 'on',
});

export const creationInput = (form: Record<string, string>): EmailChannelInput => ({ ...settingsOf(form), store_id: scopeOf(form.store_id) });

/** An edit sends every setting the form shows; the scope is fixed at creation. */
export const changesOf = (form: Record<string, string>): EmailChannelChanges => settingsOf(form);

/**
 * The form's fields a refusal names, for the page to mark them: a `validation_error`'s details; undefined when
 * the refusal is not about the form's fields (a suspended store, the channel limit), which the page shows whole.
 */
export function refusedFields(error: unknown): ChannelField[] | undefined {
  if (!(error instanceof DomainError) || error.code !== 'validation_error') return undefined;
  const fields = (error.details ?? []).map((detail) => detail.field).filter((field): field is ChannelField => (CHANNEL_FIELDS as readonly unknown[]).includes(field));
  return fields.length ? [...new Set(fields)] : undefined;
}

/**
 * The notifier's refusals about no field, as the page says them. The channel limits' words are the notifier's own
 * (no lib holds them), matched by their start and read for their number; test/refusals.e2e.spec.ts gets each from
 * the running service, so a change of wording there shows.
 */
export const CHANNEL_REFUSALS: readonly KnownRefusal[] = [
  { code: 'conflict', message: STORE_SUSPENDED_MESSAGE, key: 'channels.refused.store-suspended' },
  { code: 'conflict', message: /^An organization has at most (?<max>\d+) organization-wide /, key: 'channels.refused.organization-limit' },
  { code: 'conflict', message: /^A store has at most (?<max>\d+) channels of its own/, key: 'channels.refused.store-limit' },
  { code: 'not_found', key: 'channels.refused.not-found' },
];
