import { SCRIPT_HISTORY, SCRIPT_HISTORY_PAGES_MAX, type HashSpan, type ScriptHistoryDocument, type ScriptRecommendationView } from '@pss/contracts';
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
  collections: { [SCRIPT_HISTORY]: [{ key: { org_id: 1, _id: 1 } }, { key: { store_id: 1, pages: 1 } }] },
  canHandle: (event: RecordedEvent) => isScriptEvent(event) || isSightingsEvent(event),
  async evolve(event, context) {
    const histories = context.collection<ScriptHistoryDocument>(SCRIPT_HISTORY);
    /** The history with `hash` seen at `at` (null: a sighting of whatever the current content is) and the page it came from. */
    const seen = async (scriptId: string, hash: string | null, at: string, pageUrl?: string) => {
      const history = await histories.findOne({ _id: scriptId });
      if (!history) return;
      const content = hash ?? history.current_hash;
      await applyOnce(histories, scriptId, event, {
        $set: { hashes: content ? withSighting(history.hashes, content, at) : history.hashes, pages: withPage(history.pages, pageUrl) },
      });
    };
    switch (event.type) {
      case 'ScriptDetected': {
        const { data } = event;
        const doc: Omit<ScriptHistoryDocument, '_id'> = {
          org_id: data.orgId,
          store_id: data.storeId,
          hashes: data.hash ? [{ hash: data.hash, first_seen_at: data.detectedAt, last_seen_at: data.detectedAt }] : [],
          current_hash: data.hash,
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
        const hashes = data.hash ? withSighting(history.hashes, data.hash, data.changedAt) : history.hashes;
        await applyOnce(histories, data.scriptId, event, { $set: { hashes, current_hash: data.hash, pages: withPage(history.pages, data.pageUrl) } });
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
        return seen(event.data.scriptId, null, event.data.seenAt);
      case 'ScriptIntegrityRefused':
        return seen(event.data.scriptId, event.data.hash, event.data.refusedAt, event.data.pageUrl);
      case 'ScriptAuthorizedContentSeen':
        return seen(event.data.scriptId, event.data.hash, event.data.seenAt);
      case 'SightingsFlushed':
        for (const sighting of event.data.scripts) await seen(sighting.scriptId, null, sighting.lastSeenAt);
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
