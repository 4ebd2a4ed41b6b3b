import { CONNECTIONS, type ConnectionDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { ConnectionEvent, ConnectionSighting } from './connection.events';

export const isConnectionEvent = canHandle<ConnectionEvent>({ ConnectionDetected: true, ConnectionSeen: true });

/** `connections`: each origin a store's pages reach. The decider bounds what each event adds. */
export class ConnectionProjection extends readModelProjection({
  name: 'connections',
  streamPrefixes: ['connection-'],
  collections: { [CONNECTIONS]: [{ key: { org_id: 1, first_seen_at: -1 } }, { key: { store_id: 1 } }] },
  canHandle: isConnectionEvent,
  async evolve(event, context) {
    const { data } = event;
    const identity = { org_id: data.orgId, store_id: data.storeId, origin: data.origin };
    await applyOnce(context.collection<ConnectionDocument>(CONNECTIONS), data.connectionId, event, {
      $set: identity,
      $min: { first_seen_at: data.at },
      $max: { last_seen_at: data.at },
      $addToSet: additions(data),
    }, { upsert: true });
  },
}) {}

/** Every list is there from the first event, empty when nothing was added to it yet. */
function additions(data: ConnectionSighting): Record<string, unknown> {
  return {
    via: data.via,
    pages: { $each: data.page === null ? [] : [data.page] },
    initiators: { $each: data.initiator === null ? [] : [{ script_id: data.initiator.scriptId, src: data.initiator.src }] },
  };
}
