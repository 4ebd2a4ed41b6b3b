import { RULES, type RuleDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, deleteOnce, readModelProjection } from '@pss/projections';
import { ruleEventTypes, type RuleEvent } from './rule.events';

export const isRuleEvent = canHandle<RuleEvent>(ruleEventTypes);

/** `rules`: what GET /rules lists and the SDK config carries. Deleted rules leave it, so no reader can miss one. */
export class RuleProjection extends readModelProjection({
  name: 'rules',
  streamPrefixes: ['rule-'],
  collections: {
    [RULES]: [
      { key: { org_id: 1, created_at: -1, _id: -1 } },
      { key: { org_id: 1, store_id: 1, type: 1, active: 1, created_at: -1, _id: -1 } },
      { key: { store_id: 1, active: 1, type: 1 } },
    ],
  },
  canHandle: isRuleEvent,
  async evolve(event, context) {
    const rules = context.collection<RuleDocument>(RULES);
    switch (event.type) {
      case 'RuleCreated': {
        const { data } = event;
        await applyOnce(rules, data.ruleId, event, {
          $set: {
            org_id: data.orgId,
            store_id: data.storeId,
            type: data.type,
            target: data.target,
            value: data.value,
            label: data.label,
            active: true,
            created_at: data.createdAt,
            updated_at: data.createdAt,
          },
        }, { upsert: true });
        return;
      }
      case 'RuleUpdated': {
        const { ruleId, storeId: _storeId, updatedAt, ...changes } = event.data;
        await applyOnce(rules, ruleId, event, { $set: { ...changes, updated_at: updatedAt } });
        return;
      }
      case 'RuleDeleted':
        await deleteOnce(rules, event.data.ruleId, event);
        return;
    }
  },
}) {}
