import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import { hourStartOf } from '../report/build-report';
import type { SdkWindowEvent } from './report-facts.events';

/** SDK activity per store and UTC hour, for the weekly rows of periodic_checks and the pages observed. */
export const SDK_HOURS = 'report_sdk_hours';
/** Per store, the last SDK window counted, so a redelivered one is not counted again. */
export const SDK_STORES = 'report_sdk_stores';

export interface SdkHourDocument {
  _id: string;
  store_id: string;
  hour_start: string;
  batches: number;
  observations: number;
  sessions: number;
  /** Distinct client addresses per window, summed (absent from hours counted before issue 29). */
  clients?: number;
}

/** Batches per store, UTC hour and page path: the pages the SDK observed (pages_observed). */
export const SDK_PAGES = 'report_sdk_pages';

export interface SdkPageDocument {
  _id: string;
  store_id: string;
  hour_start: string;
  path: string;
  batches: number;
}

export interface SdkStoreDocument {
  _id: string;
  last_event_at: string;
}

const isSdkWindow = canHandle<SdkWindowEvent>({ SdkWindowCounted: true });

export class SdkActivityProjection extends readModelProjection({
  name: SDK_HOURS,
  streamPrefixes: ['reportsdk-'],
  collections: {
    [SDK_HOURS]: [{ key: { store_id: 1, hour_start: 1 } }],
    [SDK_PAGES]: [{ key: { store_id: 1, hour_start: 1 } }],
    [SDK_STORES]: [],
  },
  canHandle: isSdkWindow,
  async evolve(event, context) {
    const { data } = event;
    const hourStart = new Date(hourStartOf(Date.parse(data.lastEventAt))).toISOString();
    await applyOnce(
      context.collection<SdkHourDocument>(SDK_HOURS),
      `${data.storeId}|${hourStart}`,
      event,
      { $set: { store_id: data.storeId, hour_start: hourStart }, $inc: { batches: data.batches, observations: data.observations, sessions: data.sessions, clients: data.clients ?? 0 } },
      { upsert: true },
    );
    for (const page of data.pages ?? []) {
      await applyOnce(
        context.collection<SdkPageDocument>(SDK_PAGES),
        `${data.storeId}|${hourStart}|${page.path}`,
        event,
        { $set: { store_id: data.storeId, hour_start: hourStart, path: page.path }, $inc: { batches: page.batches } },
        { upsert: true },
      );
    }
    await applyOnce(context.collection<SdkStoreDocument>(SDK_STORES), data.storeId, event, { $max: { last_event_at: data.lastEventAt } }, { upsert: true });
  },
}) {}
