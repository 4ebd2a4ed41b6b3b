import { DomainError, notFound, validationError, type Decider } from '@pss/kernel';
import { HAND_DECISIONS, integrityOf, type AuthorizationMethod, type ScriptStatus, type ScriptType } from '@pss/contracts';
import type { ScriptAddress, ScriptContent, ScriptDecision, ScriptEvent, ScriptRecommendation } from './script.events';
import { hashAlgorithm, withHash, type HashesByAlgorithm } from './script-hashes';

/**
 * A mismatch the service saw is held until someone authorizes the content, or the authorized content is seen
 * again from this many distinct sessions over at least RESTORE_CLIENTS client addresses: one client re-posting an
 * old hash does not clear it (docs/decisions.md, issue 29).
 */
export const RESTORE_SESSIONS = 3;
export const RESTORE_CLIENTS = 2;
/** How long before an authorization expires its review falls due. */
const REVIEW_NOTICE_MS = 7 * 24 * 60 * 60 * 1000;

export interface ScriptSighting extends ScriptContent, ScriptAddress {
  gtmContainer: string | null;
  pageUrl: string;
  sessionId: string;
  /** The page's integrity tokens the browser refused these bytes for (the SDK compared them); null otherwise. */
  refusedIntegrity: string | null;
  /** The keyed hash of the sender's address; null when the gateway sent none. */
  client: string | null;
}

export interface Classification {
  type: ScriptType;
  vendorId: string | null;
  category: string | null;
  /** The host is on the threat list. */
  threat: boolean;
}

export type ScriptCommand =
  | { type: 'ObserveScript'; sighting: ScriptSighting; classification: Classification; at: Date }
  | { type: 'AuthorizeScript'; decision: ScriptDecision; expiresAt: Date | null; at: Date }
  | { type: 'BlockScript'; decision: ScriptDecision; ruleId: string; at: Date }
  | { type: 'RequestReview'; decision: ScriptDecision; at: Date }
  | { type: 'Recommend'; recommendation: ScriptRecommendation }
  | { type: 'ExpireAuthorization'; at: Date }
  | { type: 'RecordSensitiveFieldAccess'; field: string; at: Date };

export interface ScriptState {
  scriptId?: string;
  storeId?: string;
  orgId?: string;
  inline?: boolean;
  /** As first seen; an external script's rules use it without its query. */
  src?: string;
  host?: string | null;
  type?: ScriptType;
  /** What policies look at, kept here so they decide from the stream, never from a read model that may lag. */
  category?: string | null;
  vendorId?: string | null;
  sizeBytes?: number | null;
  integrityAttr?: boolean | null;
  status?: ScriptStatus;
  currentHash: string | null;
  authorizedHash: string | null;
  /** The last hash seen of each algorithm. */
  seenHashes: HashesByAlgorithm;
  /** The authorized content's hash in each algorithm known for it. */
  authorizedHashes: HashesByAlgorithm;
  /** How the last decision was taken (null: none yet). */
  decidedBy?: AuthorizationMethod;
  expiresAt?: string | null;
  recommendation?: ScriptRecommendation;
  sensitiveFields: string[];
  /** The content the browser refuses for the page's `integrity`, while it does. */
  refusedHash: string | null;
  /** A mismatch seen and not yet cleared, with the sessions and clients the authorized content was seen from since. */
  heldMismatch: HeldMismatch | null;
}

export interface HeldMismatch {
  sessions: string[];
  clients: string[];
}

/**
 * A decision names its policy exactly when it is the policy's (`policy`); any other is a person's, by one of
 * HAND_DECISIONS as its sender stated: a command claiming `expiry` or `integrity`, or `policy` without a policy, is
 * refused rather than recorded as something the service did on its own.
 */
export function checkDecisionMethod({ method, policyId }: ScriptDecision): void {
  if (policyId !== null ? method === 'policy' : (HAND_DECISIONS as readonly string[]).includes(method)) return;
  throw validationError([{ field: 'method', message: `method must be one of the following values: ${HAND_DECISIONS.join(', ')}` }]);
}

/** A decision a policy wants: nothing when it is already so, or when a person decided by hand. */
export function policyMayDecide(state: ScriptState): boolean {
  // Decisions taken by hand stand (spec of the policies issue).
  return state.decidedBy === undefined || !(HAND_DECISIONS as readonly AuthorizationMethod[]).includes(state.decidedBy);
}

export const scriptDecider: Decider<ScriptState, ScriptCommand, ScriptEvent> = {
  initialState: () => ({ currentHash: null, authorizedHash: null, seenHashes: {}, authorizedHashes: {}, sensitiveFields: [], refusedHash: null, heldMismatch: null }),

  decide(command, state) {
    if (command.type === 'ObserveScript') return observe(command, state);
    if (!state.scriptId) throw notFound('Script');
    const ids = { scriptId: state.scriptId, storeId: state.storeId! };
    const byPolicy = command.type !== 'Recommend' && 'decision' in command && command.decision.method === 'policy';
    if ('decision' in command) checkDecisionMethod(command.decision);
    if (byPolicy && !policyMayDecide(state)) return [];
    switch (command.type) {
      case 'AuthorizeScript': {
        if (command.expiresAt && command.expiresAt.getTime() <= command.at.getTime()) {
          throw new DomainError('validation_error', 'expires_at must be in the future', [{ field: 'expires_at', message: 'expires_at must be in the future' }]);
        }
        if (byPolicy && state.status === 'authorized' && state.authorizedHash === state.currentHash) return [];
        return [
          {
            type: 'ScriptAuthorized',
            data: {
              ...ids,
              ...command.decision,
              authorizedHash: state.currentHash,
              expiresAt: command.expiresAt?.toISOString() ?? null,
              reviewDueAt: command.expiresAt ? reviewDue(command.at, command.expiresAt) : null,
              authorizedAt: command.at.toISOString(),
            },
          },
        ];
      }
      case 'BlockScript':
        if (byPolicy && state.status === 'blocked') return [];
        return [{ type: 'ScriptBlocked', data: { ...ids, ...command.decision, ruleId: command.ruleId, blockedAt: command.at.toISOString() } }];
      case 'RequestReview':
        if (state.status === 'needs_review') return [];
        return [{ type: 'ScriptReviewRequested', data: { ...ids, ...command.decision, requestedAt: command.at.toISOString() } }];
      case 'Recommend': {
        const { at: _at, ...wanted } = command.recommendation;
        const current = state.recommendation && (({ at: _ignored, ...rest }) => rest)(state.recommendation);
        if (JSON.stringify(current) === JSON.stringify(wanted)) return [];
        return [{ type: 'ScriptRecommended', data: { ...ids, recommendation: command.recommendation } }];
      }
      case 'ExpireAuthorization': {
        if (state.status !== 'authorized' || !state.expiresAt || Date.parse(state.expiresAt) > command.at.getTime()) return [];
        const decision: ScriptDecision = { method: 'expiry', by: 'system', justification: `Authorization expired at ${state.expiresAt}`, policyId: null, policyVersion: null, prevalenceSeen: null };
        return [{ type: 'ScriptReviewRequested', data: { ...ids, ...decision, requestedAt: command.at.toISOString() } }];
      }
      case 'RecordSensitiveFieldAccess': {
        if (state.sensitiveFields.includes(command.field)) return [];
        const at = command.at.toISOString();
        const events: ScriptEvent[] = [{ type: 'ScriptSensitiveFieldAccessed', data: { ...ids, field: command.field, accessedAt: at } }];
        // Only an unknown script still waiting for review becomes suspicious; a decision already taken stands.
        if (state.status === 'needs_review' && state.type === 'unknown') {
          events.push({ type: 'ScriptMarkedSuspicious', data: { ...ids, field: command.field, markedAt: at } });
        }
        return events;
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ScriptDetected':
        return {
          scriptId: event.data.scriptId,
          storeId: event.data.storeId,
          orgId: event.data.orgId,
          inline: event.data.inline,
          src: event.data.src,
          host: event.data.host,
          type: event.data.type,
          category: event.data.category,
          vendorId: event.data.vendorId,
          sizeBytes: event.data.sizeBytes,
          integrityAttr: event.data.integrityAttr,
          status: event.data.status,
          currentHash: event.data.hash,
          authorizedHash: null,
          seenHashes: withHash({}, event.data.hash),
          authorizedHashes: {},
          sensitiveFields: [],
          refusedHash: null,
          heldMismatch: null,
        };
      case 'ScriptHashChanged':
        return {
          ...state,
          heldMismatch: event.data.unauthorizedChange ? { sessions: [], clients: [] } : state.heldMismatch,
          sizeBytes: event.data.sizeBytes,
          integrityAttr: event.data.integrityAttr,
          currentHash: event.data.hash,
          authorizedHash: event.data.authorizedHash,
          seenHashes: withHash(state.seenHashes, event.data.hash),
          authorizedHashes: withHash(state.authorizedHashes, event.data.authorizedHash),
        };
      case 'ScriptHashLearned':
        return {
          ...state,
          seenHashes: withHash(state.seenHashes, event.data.hash),
          authorizedHashes: state.status === 'authorized' ? withHash(state.authorizedHashes, event.data.hash) : state.authorizedHashes,
        };
      case 'ScriptAuthorized':
        // What is authorized is the content as seen now, under every algorithm it was seen with.
        return {
          ...state,
          status: 'authorized',
          authorizedHash: event.data.authorizedHash,
          authorizedHashes: withHash(state.seenHashes, event.data.authorizedHash),
          decidedBy: event.data.method,
          expiresAt: event.data.expiresAt,
          heldMismatch: null,
        };
      case 'ScriptBlocked':
        return { ...state, status: 'blocked', decidedBy: event.data.method, expiresAt: null };
      case 'ScriptReviewRequested':
        return { ...state, status: 'needs_review', decidedBy: event.data.method, expiresAt: null };
      case 'ScriptRecommended':
        return { ...state, recommendation: event.data.recommendation };
      case 'ScriptIntegrityRefused':
        return { ...state, refusedHash: event.data.hash };
      case 'ScriptIntegrityAccepted':
        return { ...state, refusedHash: null };
      case 'ScriptSensitiveFieldAccessed':
        return { ...state, sensitiveFields: [...state.sensitiveFields, event.data.field] };
      case 'ScriptMarkedSuspicious':
        return { ...state, status: 'suspicious' };
      case 'ScriptAuthorizedContentSeen': {
        const held = state.heldMismatch ?? { sessions: [], clients: [] };
        const { sessionId, client } = event.data;
        return {
          ...state,
          heldMismatch: {
            sessions: held.sessions.includes(sessionId) ? held.sessions : [...held.sessions, sessionId],
            clients: client === null || held.clients.includes(client) ? held.clients : [...held.clients, client],
          },
        };
      }
      case 'ScriptIntegrityRestored':
        return { ...state, heldMismatch: null };
    }
  },
};

type ObserveScript = Extract<ScriptCommand, { type: 'ObserveScript' }>;

function observe(command: ObserveScript, state: ScriptState): ScriptEvent[] {
  const events = contentEvents(command, state);
  const refusal = refusalChange(command, state);
  return refusal ? [...events, refusal] : events;
}

/**
 * Only a sighting of an element's bytes (the SDK's own hash) says whether the browser runs them: a resource
 * timing entry or an `integrity` copied as the hash knows nothing of a refusal, and leaves it as it was.
 */
const knowsRefusal = (sighting: ScriptSighting): boolean => sighting.hashSource === 'sdk' && sighting.integrityAttr !== null;

function refusedAfter(sighting: ScriptSighting, state: ScriptState): boolean {
  return sighting.refusedIntegrity !== null || (!knowsRefusal(sighting) && state.refusedHash !== null);
}

/** A refusal that begins (or now refuses other bytes), or ends. */
function refusalChange({ sighting, at }: ObserveScript, state: ScriptState): ScriptEvent | undefined {
  const ids = { scriptId: sighting.scriptId, storeId: sighting.storeId };
  if (sighting.refusedIntegrity !== null && sighting.hash !== null) {
    if (state.refusedHash === sighting.hash) return undefined;
    const { src, hash, refusedIntegrity, pageUrl, sessionId } = sighting;
    return { type: 'ScriptIntegrityRefused', data: { ...ids, src, hash, refusedIntegrity, pageUrl, sessionId, refusedAt: at.toISOString() } };
  }
  if (state.refusedHash === null || !knowsRefusal(sighting)) return undefined;
  return { type: 'ScriptIntegrityAccepted', data: { ...ids, hash: sighting.hash, acceptedAt: at.toISOString() } };
}

function contentEvents(command: ObserveScript, state: ScriptState): ScriptEvent[] {
  const { sighting, classification, at } = command;
  const content: ScriptContent = {
    hash: sighting.hash,
    sriHash: sighting.sriHash,
    hashSource: sighting.hashSource,
    integrityAttr: sighting.integrityAttr,
    sizeBytes: sighting.sizeBytes,
  };
  if (!state.scriptId) {
    return [
      {
        type: 'ScriptDetected',
        data: {
          ...content,
          scriptId: sighting.scriptId,
          storeId: sighting.storeId,
          orgId: sighting.orgId,
          src: sighting.src,
          inline: sighting.inline,
          host: sighting.host,
          type: classification.type,
          vendorId: classification.vendorId,
          category: classification.category,
          status: classification.threat ? 'malicious' : 'needs_review',
          gtmContainer: sighting.gtmContainer,
          pageUrl: sighting.pageUrl,
          sessionId: sighting.sessionId,
          detectedAt: at.toISOString(),
        },
      },
    ];
  }
  if (sighting.hash === null) return [];
  const algorithm = hashAlgorithm(sighting.hash);
  const previousHash = state.seenHashes[algorithm] ?? null;
  if (state.heldMismatch && state.status === 'authorized' && sighting.hash === state.authorizedHashes[algorithm]) {
    return authorizedContentAgain(command, state, state.heldMismatch, previousHash);
  }
  if (sighting.hash === previousHash) return [];
  const ids = { scriptId: state.scriptId, storeId: state.storeId! };
  if (previousHash === null && state.currentHash !== null) {
    return [{ type: 'ScriptHashLearned', data: { ...ids, hash: sighting.hash, hashSource: sighting.hashSource, sessionId: sighting.sessionId, seenAt: at.toISOString() } }];
  }
  const authorized = state.status === 'authorized';
  // Authorized before any hash was known: the first hash seen is the one pinned.
  const authorizedHash = authorized ? (state.authorizedHashes[algorithm] ?? sighting.hash) : state.authorizedHash;
  return [
    {
      type: 'ScriptHashChanged',
      data: {
        ...content,
        ...ids,
        previousHash,
        integrityStatus: integrityOf(state.status!, sighting.hash, authorizedHash, refusedAfter(sighting, state)),
        unauthorizedChange: authorized && sighting.hash !== authorizedHash,
        authorizedHash,
        src: sighting.src,
        pageUrl: sighting.pageUrl,
        sessionId: sighting.sessionId,
        changedAt: at.toISOString(),
      },
    },
  ];
}

/**
 * The authorized content while a mismatch is held: still a mismatch (back to it, when the content was another),
 * counted towards the sessions and addresses that restore it.
 */
function authorizedContentAgain(command: ObserveScript, state: ScriptState, held: HeldMismatch, previousHash: string | null): ScriptEvent[] {
  const { sighting, at } = command;
  const hash = sighting.hash!;
  const ids = { scriptId: state.scriptId!, storeId: state.storeId! };
  const events: ScriptEvent[] = [];
  if (hash !== previousHash) {
    const content = { hash, sriHash: sighting.sriHash, hashSource: sighting.hashSource, integrityAttr: sighting.integrityAttr, sizeBytes: sighting.sizeBytes };
    const { src, pageUrl, sessionId } = sighting;
    const changedAt = at.toISOString();
    events.push({
      type: 'ScriptHashChanged',
      data: { ...content, ...ids, previousHash, integrityStatus: 'mismatch', unauthorizedChange: false, authorizedHash: hash, src, pageUrl, sessionId, changedAt },
    });
  }
  // Past the sessions it takes, only an address new to it counts: sightings of a held script spend no budget
  // (they are no new script), so one address's fresh sessions must not grow the stream without end.
  const newClient = sighting.client !== null && !held.clients.includes(sighting.client);
  if (held.sessions.includes(sighting.sessionId) || (held.sessions.length >= RESTORE_SESSIONS && !newClient)) return events;
  events.push({ type: 'ScriptAuthorizedContentSeen', data: { ...ids, hash, sessionId: sighting.sessionId, client: sighting.client, seenAt: at.toISOString() } });
  const sessions = held.sessions.length + 1;
  const clients = new Set([...held.clients, ...(sighting.client === null ? [] : [sighting.client])]).size;
  if (sessions >= RESTORE_SESSIONS && clients >= RESTORE_CLIENTS) {
    events.push({ type: 'ScriptIntegrityRestored', data: { ...ids, hash, sessions, clients, restoredAt: at.toISOString() } });
  }
  return events;
}

/** A week before the expiry, or halfway there for a shorter authorization. */
function reviewDue(at: Date, expiresAt: Date): string {
  const notice = Math.min(REVIEW_NOTICE_MS, (expiresAt.getTime() - at.getTime()) / 2);
  return new Date(expiresAt.getTime() - notice).toISOString();
}
