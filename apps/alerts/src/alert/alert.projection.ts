import { Injectable } from '@nestjs/common';
import { ALERTS, type AlertDocument } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, type Projection, type ProjectionContext } from '@pss/projections';
import { fieldsSetBy, isAlertEvent } from './alert.events';

/** `alerts`: what GET /alerts lists, the store status counts and the PCI report quotes. */
@ReadModelProjection()
@Injectable()
export class AlertProjection implements Projection {
  readonly name = 'alerts';
  readonly filter = { streamPrefixes: ['alert-'] };
  readonly collections: Projection['collections'] = {
    [ALERTS]: [
      { key: { org_id: 1, created_at: -1, _id: -1 } },
      { key: { org_id: 1, store_id: 1, created_at: -1, _id: -1 } },
      { key: { store_id: 1, type: 1, status: 1 } },
    ],
  };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    if (!isAlertEvent(recorded)) return;
    const event = recorded;
    const alerts = context.collection<AlertDocument>(ALERTS);
    switch (event.type) {
      case 'AlertOpened': {
        const { id, ...alert } = event.data.alert;
        await applyOnce(alerts, id, recorded, { $set: alert }, { upsert: true });
        return;
      }
      case 'AlertOccurred': {
        const { data } = event;
        await applyOnce(alerts, data.alertId, recorded, {
          $inc: { occurrences: 1, sessions_count: data.newSession ? 1 : 0 },
          $max: { last_seen_at: data.at },
        });
        return;
      }
      default:
        await applyOnce(alerts, event.data.alertId, recorded, { $set: fieldsSetBy(event) });
    }
  }
}
