import type { ScriptRecommendationView } from './script';

/**
 * Read model `script_history` (owner: inventory; reader: the dashboard's script page and inventory by payment
 * page): what the `scripts` document forgets as it moves on, kept beside it rather than in it so that GET /scripts
 * keeps its size. One document per script.
 */
export const SCRIPT_HISTORY = 'script_history';

/** Pages recorded per script: a script seen on every page of a big shop would otherwise grow without bound. */
export const SCRIPT_HISTORY_PAGES_MAX = 100;

/** One content of the script: when the SDK first and last reported it. */
export interface HashSpan {
  hash: string;
  first_seen_at: string;
  last_seen_at: string;
}

export interface ScriptHistoryDocument {
  /** The script's id. */
  _id: string;
  org_id: string;
  store_id: string;
  /** As the script's `first_seen_at`: the inventory by payment page pages the histories by GET /scripts's cursor. */
  first_seen_at: string;
  /**
   * Every content, in the order first seen (a content seen again keeps its span, its last seen moves). The
   * current content's last seen is the later of its span's and `current_seen_at`: read them through `hashTimeline`.
   */
  hashes: HashSpan[];
  /** The content sightings are counted against (sightings windows carry no hash). */
  current_hash: string | null;
  /**
   * The current content's latest sighting, moved without reading the document (a sighting is the SDK ingest
   * path's commonest event); folded into its span when the content changes.
   */
  current_seen_at: string | null;
  /** Paths of the pages the script was reported on (no query: it may be a visitor's), in the order first seen. */
  pages: string[];
  /**
   * What policies recommended, oldest first, each change once: `scripts` forgets the recommendation when someone
   * decides, and the script's page still says which policy recommended what and why.
   */
  recommendations: ScriptRecommendationView[];
}

/** The spans with the current content's latest sighting in its span: the hash timeline as a person reads it. */
export function hashTimeline(history: Pick<ScriptHistoryDocument, 'hashes' | 'current_hash' | 'current_seen_at'>): HashSpan[] {
  const { hashes, current_hash: current, current_seen_at: seenAt } = history;
  return hashes.map((span) => (span.hash === current && seenAt && seenAt > span.last_seen_at ? { ...span, last_seen_at: seenAt } : span));
}
