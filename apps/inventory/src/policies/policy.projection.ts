import { Injectable } from '@nestjs/common';
import { POLICIES, type PolicyDocument } from '@pss/contracts';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, POSITION_FIELD, type Projection, type ProjectionContext } from '@pss/projections';
import type { PolicyEvent } from './policy.decider';

export const isPolicyEvent = canHandle<PolicyEvent>({
  PolicyCreated: true,
  PolicyUpdated: true,
  PolicyDeleted: true,
});

/** `policies`: the spec's Policy resources, listed per organization (and store) in evaluation order. */
@ReadModelProjection()
@Injectable()
export class PolicyProjection implements Projection {
  readonly name = 'policies';
  readonly filter = { streamPrefixes: ['policy-'] };
  readonly collections: Projection['collections'] = {
    [POLICIES]: [
      { key: { org_id: 1, priority: 1, _id: 1 } },
      { key: { org_id: 1, store_id: 1, priority: 1, _id: 1 } },
    ],
  };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    if (!isPolicyEvent(recorded)) return;
    const event = recorded;
    switch (event.type) {
      case 'PolicyCreated': {
        const { data } = event;
        await applyOnce(context.collection<PolicyDocument>(POLICIES), data.policyId, recorded, {
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
        await applyOnce(context.collection<PolicyDocument>(POLICIES), data.policyId, recorded, {
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
        await context.collection<PolicyDocument>(POLICIES).deleteMany({ _id: event.data.policyId, [POSITION_FIELD]: { $lt: recorded.position } });
        return;
    }
  }
}
