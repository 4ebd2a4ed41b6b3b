import {
  ALERT_SEVERITIES,
  EMAIL_CHANNEL_RECIPIENTS_MAX,
  WEBHOOK_NAME_MAX,
  type EmailChannelChanges,
  type EmailChannelInput,
} from '@pss/contracts';
import { validationError, type ErrorDetail } from '@pss/kernel';
import type { Channel, ChannelSettings } from './channel.events';

/** Deliberately loose (one @, a dot in the domain, no spaces): the test e-mail is what proves an address. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_ADDRESS_LENGTH = 254;

/** An e-mail channel as the dashboard creates it; refused (400 `validation_error`, one detail per field) unless valid. */
export function emailChannel(channelId: string, orgId: string, storeId: string | null, input: EmailChannelInput): Channel {
  assertValid(input, true);
  return {
    channelId,
    orgId,
    storeId,
    type: 'email',
    format: null,
    url: null,
    secret: null,
    events: null,
    name: input.name.trim(),
    recipients: normalizedRecipients(input.recipients),
    minSeverity: input.min_severity ?? 'high',
    active: input.active ?? true,
  };
}

/** The settings an edit asks for, validated as on creation; absent fields stay as they are. */
export function emailChannelChanges(changes: EmailChannelChanges): Partial<ChannelSettings> {
  assertValid(changes, false);
  return {
    name: changes.name?.trim(),
    recipients: changes.recipients === undefined ? undefined : normalizedRecipients(changes.recipients),
    minSeverity: changes.min_severity,
    active: changes.active,
  };
}

/** Addresses compare case-insensitively: one recipient written twice gets one e-mail. */
const normalizedRecipients = (recipients: string[]): string[] => [...new Set(recipients.map((address) => address.trim().toLowerCase()))];

function assertValid(input: EmailChannelChanges, creating: boolean): void {
  const details: ErrorDetail[] = [];
  if (creating || input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name.length === 0) details.push({ field: 'name', message: 'name is required' });
    if (name.length > WEBHOOK_NAME_MAX) details.push({ field: 'name', message: `name must be at most ${WEBHOOK_NAME_MAX} characters` });
  }
  if (creating || input.recipients !== undefined) details.push(...recipientProblems(input.recipients));
  if (input.min_severity !== undefined && !(ALERT_SEVERITIES as readonly string[]).includes(input.min_severity)) {
    details.push({ field: 'min_severity', message: `min_severity must be one of ${ALERT_SEVERITIES.join(', ')}` });
  }
  if (input.active !== undefined && typeof input.active !== 'boolean') details.push({ field: 'active', message: 'active must be true or false' });
  if (details.length) throw validationError(details);
}

function recipientProblems(recipients: unknown): ErrorDetail[] {
  if (!Array.isArray(recipients) || recipients.length === 0) return [{ field: 'recipients', message: 'at least one recipient is required' }];
  const invalid = recipients.filter((address) => typeof address !== 'string' || address.length > MAX_ADDRESS_LENGTH || !EMAIL_PATTERN.test(address.trim()));
  if (invalid.length) return [{ field: 'recipients', message: `not e-mail addresses: ${invalid.map(String).join(', ')}` }];
  if (normalizedRecipients(recipients as string[]).length > EMAIL_CHANNEL_RECIPIENTS_MAX) {
    return [{ field: 'recipients', message: `an e-mail channel has at most ${EMAIL_CHANNEL_RECIPIENTS_MAX} recipients` }];
  }
  return [];
}
