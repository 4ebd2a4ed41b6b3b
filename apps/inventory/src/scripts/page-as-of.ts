import { integrityOf, matchesGlob, type ScriptAtMoment, type ScriptStatus } from '@pss/contracts';
import type { ScriptEvent } from './script.events';

/** What a script's events say at a moment: its state so far, and whether one of them came from the page. */
interface ScriptSoFar {
  script: Omit<ScriptAtMoment, 'integrity_status'> & { sriRefused: boolean; mismatchHeld: boolean };
  onPage: boolean;
}

/**
 * Where each event records when it happened; null for a fact of no moment (a recommendation), which changes
 * neither status nor content. A map over every type, so a new event type is a compile error until it is placed.
 */
const MOMENT_FIELD: Record<ScriptEvent['type'], string | null> = {
  ScriptDetected: 'detectedAt',
  ScriptHashChanged: 'changedAt',
  ScriptHashLearned: 'seenAt',
  ScriptAuthorized: 'authorizedAt',
  ScriptBlocked: 'blockedAt',
  ScriptReviewRequested: 'requestedAt',
  ScriptRecommended: null,
  ScriptIntegrityRefused: 'refusedAt',
  ScriptIntegrityAccepted: 'acceptedAt',
  ScriptSensitiveFieldAccessed: 'accessedAt',
  ScriptMarkedSuspicious: 'markedAt',
  ScriptAuthorizedContentSeen: 'seenAt',
  ScriptIntegrityRestored: 'restoredAt',
};

const momentOf = (event: ScriptEvent): string | null => {
  const field = MOMENT_FIELD[event.type];
  return field ? ((event.data as unknown as Record<string, string>)[field] ?? null) : null;
};

const pathOf = (pageUrl: string): string | null => {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return null;
  }
};

function evolve(state: ScriptSoFar | null, event: ScriptEvent, at: string, urlPattern: string): ScriptSoFar | null {
  const seenOn = (pageUrl: string): boolean => {
    const path = pathOf(pageUrl);
    return path !== null && matchesGlob(path, urlPattern);
  };
  const changed = (script: ScriptSoFar['script'], fields: Partial<ScriptSoFar['script']>): ScriptSoFar['script'] => ({ ...script, ...fields, changed_at: at });
  if (event.type === 'ScriptDetected') {
    const { data } = event;
    const script = { script_id: data.scriptId, src: data.src, status: data.status, hash: data.hash, authorized_hash: null, first_seen_at: at, changed_at: at, sriRefused: false, mismatchHeld: false };
    return { script, onPage: seenOn(data.pageUrl) };
  }
  if (!state) return null;
  const { script } = state;
  const status = (next: ScriptStatus, fields: Partial<ScriptSoFar['script']> = {}): ScriptSoFar => ({ ...state, script: changed(script, { status: next, ...fields }) });
  switch (event.type) {
    case 'ScriptHashChanged': {
      const { data } = event;
      const mismatchHeld = data.unauthorizedChange ? true : data.integrityStatus === 'match' ? false : script.mismatchHeld;
      return { script: changed(script, { hash: data.hash, authorized_hash: data.authorizedHash, src: data.src, mismatchHeld }), onPage: state.onPage || seenOn(data.pageUrl) };
    }
    case 'ScriptAuthorized':
      return status('authorized', { authorized_hash: event.data.authorizedHash, mismatchHeld: false });
    case 'ScriptBlocked':
      return status('blocked');
    case 'ScriptReviewRequested':
      return status('needs_review');
    case 'ScriptMarkedSuspicious':
      return status('suspicious');
    case 'ScriptIntegrityRefused':
      return { script: changed(script, { sriRefused: true }), onPage: state.onPage || seenOn(event.data.pageUrl) };
    case 'ScriptIntegrityAccepted':
      return { ...state, script: changed(script, { sriRefused: false }) };
    case 'ScriptIntegrityRestored':
      return { ...state, script: changed(script, { mismatchHeld: false }) };
    default:
      // Sightings of content already known, a learnt second hash, a field read: neither status nor content.
      return state;
  }
}

/**
 * A script on a payment page as of `at`, folded from its stream: null when it was not seen yet, or never from a
 * page matching `urlPattern` by then. Events after `at` are not read (the stream is in the order things happened).
 * "On the page" is what the events record: the page of its first sighting, of each change of its content and of a
 * browser's refusal; sightings of known content are counted per window, without their page.
 */
export function scriptOnPageAt(events: readonly ScriptEvent[], at: Date, urlPattern: string): ScriptAtMoment | null {
  let state: ScriptSoFar | null = null;
  for (const event of events) {
    const moment = momentOf(event);
    if (moment === null) continue;
    if (new Date(moment) > at) break;
    state = evolve(state, event, moment, urlPattern);
  }
  if (!state?.onPage) return null;
  const { sriRefused, mismatchHeld, ...script } = state.script;
  const integrity = mismatchHeld && script.status !== 'blocked' ? 'mismatch' : integrityOf(script.status, script.hash, script.authorized_hash, sriRefused);
  return { ...script, integrity_status: integrity };
}
