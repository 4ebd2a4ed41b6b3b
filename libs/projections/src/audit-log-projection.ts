import {
  auditLogCollection,
  auditTargetsCollection,
  type AuditDetails,
  type AuditEntryDocument,
  type AuditLogOwner,
  type AuditTargetType,
} from '@pss/contracts';
import { canHandle, type RecordedOf } from '@pss/event-store';
import type { DomainEvent } from '@pss/kernel';
import type { Document } from '@pss/read-store';
import { applyOnce } from './apply-once';
import type { Projection, ProjectionContext } from './projection';
import { readModelProjection } from './read-model-projection';

/** What one event tells the audit log. */
export interface AuditedChange {
  /** `label` when the event says what the target is called (a creation, a rename); else the last one known. */
  target: { type: AuditTargetType; id: string; label?: string };
  /** Absent for an event that only names its target (a script's detection), so later entries have its label. */
  action?: string;
  details?: AuditDetails;
}

export interface AuditLogDefinition<E extends DomainEvent> {
  owner: AuditLogOwner;
  streamPrefixes: string[];
  /** Every event type read, so the event store skips the rest of the streams (sightings, deliveries). */
  handles: Record<E['type'], true>;
  describe(event: RecordedOf<E>): AuditedChange;
}

interface KnownTarget extends Document {
  org_id: string | null;
  label: string | null;
}

/**
 * A service's part of the audit log (`audit_log_<owner>`), from its own events: their metadata holds who acted
 * and for which organization, as the command pipeline (AggregateRepository) recorded them. Extend it as
 * `class XAuditLog extends auditLogProjection({ … }) {}` with `describe` written inline, so the snapshot
 * fingerprint (the extending class's source) changes when the mapping does.
 */
export function auditLogProjection<E extends DomainEvent>(definition: AuditLogDefinition<E>): abstract new () => Projection {
  const entries = auditLogCollection(definition.owner);
  const targets = auditTargetsCollection(definition.owner);
  return readModelProjection<RecordedOf<E>>({
    name: entries,
    streamPrefixes: definition.streamPrefixes,
    eventTypes: Object.keys(definition.handles),
    collections: {
      [entries]: [{ key: { org_id: 1, time: -1, _id: -1 } }, { key: { org_id: 1, actor: 1, time: -1 } }, { key: { org_id: 1, action: 1, time: -1 } }],
      [targets]: [],
    },
    canHandle: canHandle<E>(definition.handles),
    evolve: (event, context) => record(event, definition.describe(event), context, entries, targets),
  });
}

async function record(event: RecordedOf<DomainEvent>, change: AuditedChange, context: ProjectionContext, entries: string, targets: string): Promise<void> {
  const { type, id } = change.target;
  const targetKey = `${type}:${id}`;
  const known = await context.collection<KnownTarget>(targets).findOne({ _id: targetKey });
  // The metadata names the organization of every command's events; the target's earlier events stand in for
  // events appended without it.
  const orgId = stringOf(event.metadata.orgId) ?? known?.org_id ?? null;
  const label = change.target.label ?? known?.label ?? null;
  await applyOnce(context.collection<KnownTarget>(targets), targetKey, event, { $set: { org_id: orgId, label } }, { upsert: true });
  if (!change.action || !orgId) return;
  const entry: Omit<AuditEntryDocument, '_id'> = {
    org_id: orgId,
    time: event.createdAt,
    // Every command's events carry their actor; only the service's own appends could lack one.
    actor: stringOf(event.metadata.actor) ?? 'system',
    action: change.action,
    target: { type, id, label },
    details: change.details ?? {},
  };
  await applyOnce(context.collection<AuditEntryDocument>(entries), event.id, event, { $set: entry }, { upsert: true });
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
