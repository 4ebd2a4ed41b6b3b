import { POLICIES, type PolicyDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, deleteOnce, readModelProjection } from '@pss/projections';
import { policyEventTypes, type PolicyEvent } from './policy.decider';

export const isPolicyEvent = canHandle<PolicyEvent>(policyEventTypes);

/** `policies`: the spec's Policy resources, listed per organization (and store) in evaluation order. */
export class PolicyProjection extends readModelProjection({
  name: 'policies',
  streamPrefixes: ['policy-'],
  collections: {
    [POLICIES]: [
      { key: { org_id: 1, priority: 1, _id: 1 } },
      { key: { org_id: 1, store_id: 1, priority: 1, _id: 1 } },
    ],
  },
  canHandle: isPolicyEvent,
  async evolve(event, context) {
    switch (event.type) {
      case 'PolicyCreated': {
        const { data } = event;
        await applyOnce(context.collection<PolicyDocument>(POLICIES), data.policyId, event, {
          $set: {
            org_id: data.orgId,
            store_id: data.storeId,
            name: data.name,
            description: data.description,
            version: data.version,
            active: data.active,
            mode: data.mode,
            priority: data.priority,
            match: data.match,
            conditions: data.conditions,
            action: data.action,
            justification_template: data.justificationTemplate,
            expires_days: data.expiresDays,
            is_default: data.isDefault,
            created_at: data.createdAt,
            updated_at: data.createdAt,
          },
        }, { upsert: true });
        return;
      }
      case 'PolicyUpdated': {
        const { data } = event;
        const { justificationTemplate, expiresDays, ...rest } = data.changes;
        await applyOnce(context.collection<PolicyDocument>(POLICIES), data.policyId, event, {
          $set: {
            ...rest,
            ...(justificationTemplate !== undefined ? { justification_template: justificationTemplate } : {}),
            ...(expiresDays !== undefined ? { expires_days: expiresDays } : {}),
            version: data.version,
            updated_at: data.updatedAt,
          },
        });
        return;
      }
      case 'PolicyDeleted':
        // Gone from every reader; the stream keeps the history.
        await deleteOnce(context.collection<PolicyDocument>(POLICIES), event.data.policyId, event);
        return;
    }
  },
}) {}
