import { hashTimeline, SCRIPT_HISTORY, SCRIPT_HISTORY_PAGES_MAX, type HashSpan, type ScriptHistoryDocument, type ScriptRecommendationView } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import { isSightingsEvent } from '../ingestion/store-activity.projection';
import { isScriptEvent } from './script.events';

/**
 * `script_history`: every content a script had, with when it was first and last seen, and the pages it was
 * reported on (issue 32's script page). The `scripts` document keeps only the current content; an assessor asks
 * which content ran when.
 */
export class ScriptHistoryProjection extends readModelProjection({
  name: 'script_history',
  streamPrefixes: ['script-', 'sightings-'],
  collections: {
    [SCRIPT_HISTORY]: [
      { key: { org_id: 1, _id: 1 } },
      // The inventory by payment page: a store's histories on a page's paths, in GET /scripts's order.
      { key: { org_id: 1, store_id: 1, pages: 1, first_seen_at: -1, _id: -1 } },
    ],
  },
  canHandle: (event: RecordedEvent) => isScriptEvent(event) || isSightingsEvent(event),
  async evolve(event, context) {
    const histories = context.collection<ScriptHistoryDocument>(SCRIPT_HISTORY);
    /** A sighting of the current content, whatever it is: its time moved without reading the history first. */
    const sighted = async (scriptId: string, at: string) => {
      await applyOnce(histories, scriptId, event, { $max: { current_seen_at: at } });
    };
    /** A sighting of `hash` at `at`, from `pageUrl` when known: rarer events, which may be a content not seen before. */
    const seen = async (scriptId: string, hash: string, at: string, pageUrl?: string) => {
      const history = await histories.findOne({ _id: scriptId });
      if (!history) return;
      await applyOnce(histories, scriptId, event, { $set: { hashes: withSighting(history.hashes, hash, at), pages: withPage(history.pages, pageUrl) } });
    };
    switch (event.type) {
      case 'ScriptDetected': {
        const { data } = event;
        const doc: Omit<ScriptHistoryDocument, '_id'> = {
          org_id: data.orgId,
          store_id: data.storeId,
          first_seen_at: data.detectedAt,
          hashes: data.hash ? [{ hash: data.hash, first_seen_at: data.detectedAt, last_seen_at: data.detectedAt }] : [],
          current_hash: data.hash,
          current_seen_at: null,
          pages: withPage([], data.pageUrl),
          recommendations: [],
        };
        await applyOnce(histories, data.scriptId, event, { $set: doc }, { upsert: true });
        return;
      }
      case 'ScriptHashChanged': {
        const { data } = event;
        const history = await histories.findOne({ _id: data.scriptId });
        if (!history) return;
        // The content replaced keeps its latest sighting in its span; the new one's start from this change.
        const closed = hashTimeline(history);
        const hashes = data.hash ? withSighting(closed, data.hash, data.changedAt) : closed;
        await applyOnce(histories, data.scriptId, event, { $set: { hashes, current_hash: data.hash, current_seen_at: null, pages: withPage(history.pages, data.pageUrl) } });
        return;
      }
      case 'ScriptRecommended': {
        const { data } = event;
        const history = await histories.findOne({ _id: data.scriptId });
        if (!history) return;
        await applyOnce(histories, data.scriptId, event, { $set: { recommendations: withRecommendation(history.recommendations, data.recommendation) } });
        return;
      }
      case 'ScriptHashLearned':
        // Another algorithm's hash of the same content: a sighting of the current content, not a new one.
        return sighted(event.data.scriptId, event.data.seenAt);
      case 'ScriptIntegrityRefused':
        return seen(event.data.scriptId, event.data.hash, event.data.refusedAt, event.data.pageUrl);
      case 'ScriptAuthorizedContentSeen':
        return seen(event.data.scriptId, event.data.hash, event.data.seenAt);
      case 'SightingsFlushed':
        for (const sighting of event.data.scripts) await sighted(sighting.scriptId, sighting.lastSeenAt);
        return;
    }
  },
}) {}

/** The spans with `hash` seen at `at`: a new span for a content not seen before, else its last seen moved (never back). */
export function withSighting(hashes: readonly HashSpan[], hash: string, at: string): HashSpan[] {
  if (!hashes.some((span) => span.hash === hash)) return [...hashes, { hash, first_seen_at: at, last_seen_at: at }];
  return hashes.map((span) => (span.hash === hash && at > span.last_seen_at ? { ...span, last_seen_at: at } : span));
}

/** The recommendations with `made` unless it repeats the last (a policy evaluated again, to the same end). */
export function withRecommendation(made: readonly ScriptRecommendationView[], recommendation: ScriptRecommendationView): ScriptRecommendationView[] {
  const last = made[made.length - 1];
  const same = last && last.policy_id === recommendation.policy_id && last.policy_version === recommendation.policy_version && last.action === recommendation.action && last.justification === recommendation.justification;
  return same ? [...made] : [...made, recommendation];
}

/** The pages with the path of `pageUrl` (its query left out), up to SCRIPT_HISTORY_PAGES_MAX. */
export function withPage(pages: readonly string[], pageUrl: string | undefined): string[] {
  const path = pageUrl === undefined ? undefined : pathOf(pageUrl);
  if (path === undefined || pages.includes(path) || pages.length >= SCRIPT_HISTORY_PAGES_MAX) return [...pages];
  return [...pages, path];
}

function pathOf(pageUrl: string): string | undefined {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return undefined;
  }
}
