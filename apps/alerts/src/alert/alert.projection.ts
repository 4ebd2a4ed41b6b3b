import { ALERTS, type AlertDocument } from '@pss/contracts';
import { applyOnce, readModelProjection } from '@pss/projections';
import { fieldsSetBy, isAlertEvent } from './alert.events';

/** `alerts`: what GET /alerts lists, the store status counts and the PCI report quotes. */
export class AlertProjection extends readModelProjection({
  name: 'alerts',
  streamPrefixes: ['alert-'],
  collections: {
    [ALERTS]: [
      { key: { org_id: 1, created_at: -1, _id: -1 } },
      { key: { org_id: 1, store_id: 1, created_at: -1, _id: -1 } },
      { key: { store_id: 1, type: 1, status: 1 } },
      // The dashboard's home counts open alerts by severity, per store and per organization.
      { key: { store_id: 1, status: 1, severity: 1 } },
      { key: { org_id: 1, status: 1, severity: 1 } },
    ],
  },
  canHandle: isAlertEvent,
  async evolve(event, context) {
    const alerts = context.collection<AlertDocument>(ALERTS);
    switch (event.type) {
      case 'AlertOpened': {
        const { id, ...alert } = event.data.alert;
        await applyOnce(alerts, id, event, { $set: alert }, { upsert: true });
        return;
      }
      case 'AlertOccurred': {
        const { data } = event;
        await applyOnce(alerts, data.alertId, event, {
          $inc: { occurrences: 1, sessions_count: data.newSession ? 1 : 0 },
          $max: { last_seen_at: data.at },
        });
        return;
      }
      default:
        await applyOnce(alerts, event.data.alertId, event, { $set: fieldsSetBy(event) });
    }
  },
}) {}
