import { DomainError, notFound, type Decider } from '@pss/kernel';
import type { IntegrityStatus, ScriptStatus, ScriptType } from '@pss/contracts';
import type { ScriptContent, ScriptDecision, ScriptEvent } from './script.events';

export interface ScriptSighting extends ScriptContent {
  scriptId: string;
  storeId: string;
  orgId: string;
  src: string;
  inline: boolean;
  host: string | null;
  gtmContainer: string | null;
  pageUrl: string;
  sessionId: string;
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
  | { type: 'MarkSuspicious'; field: string; at: Date };

export interface ScriptState {
  scriptId?: string;
  storeId?: string;
  orgId?: string;
  inline?: boolean;
  host?: string | null;
  type?: ScriptType;
  status?: ScriptStatus;
  currentHash: string | null;
  authorizedHash: string | null;
}

export const scriptDecider: Decider<ScriptState, ScriptCommand, ScriptEvent> = {
  initialState: () => ({ currentHash: null, authorizedHash: null }),

  decide(command, state) {
    if (command.type === 'ObserveScript') return observe(command, state);
    if (!state.scriptId) throw notFound('Script');
    const ids = { scriptId: state.scriptId, storeId: state.storeId! };
    switch (command.type) {
      case 'AuthorizeScript':
        if (command.expiresAt && command.expiresAt.getTime() <= command.at.getTime()) {
          throw new DomainError('validation_error', 'expires_at must be in the future', [{ field: 'expires_at', message: 'expires_at must be in the future' }]);
        }
        return [
          {
            type: 'ScriptAuthorized',
            data: {
              ...ids,
              ...command.decision,
              authorizedHash: state.currentHash,
              expiresAt: command.expiresAt?.toISOString() ?? null,
              authorizedAt: command.at.toISOString(),
            },
          },
        ];
      case 'BlockScript':
        return [{ type: 'ScriptBlocked', data: { ...ids, ...command.decision, ruleId: command.ruleId, blockedAt: command.at.toISOString() } }];
      case 'MarkSuspicious':
        // Only an unknown script still waiting for review becomes suspicious; a decision already taken stands.
        if (state.status !== 'needs_review' || state.type !== 'unknown') return [];
        return [{ type: 'ScriptMarkedSuspicious', data: { ...ids, field: command.field, markedAt: command.at.toISOString() } }];
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
          host: event.data.host,
          type: event.data.type,
          status: event.data.status,
          currentHash: event.data.hash,
          authorizedHash: null,
        };
      case 'ScriptHashChanged':
        return { ...state, currentHash: event.data.hash, authorizedHash: event.data.authorizedHash };
      case 'ScriptAuthorized':
        return { ...state, status: 'authorized', authorizedHash: event.data.authorizedHash };
      case 'ScriptBlocked':
        return { ...state, status: 'blocked' };
      case 'ScriptMarkedSuspicious':
        return { ...state, status: 'suspicious' };
    }
  },
};

function observe(command: Extract<ScriptCommand, { type: 'ObserveScript' }>, state: ScriptState): ScriptEvent[] {
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
  if (sighting.hash === null || sighting.hash === state.currentHash) return [];
  const authorized = state.status === 'authorized';
  // Authorized before any hash was known: the first hash seen is the one pinned.
  const authorizedHash = authorized && state.authorizedHash === null ? sighting.hash : state.authorizedHash;
  return [
    {
      type: 'ScriptHashChanged',
      data: {
        ...content,
        scriptId: state.scriptId,
        storeId: state.storeId!,
        previousHash: state.currentHash,
        integrityStatus: integrityOf(state.status!, sighting.hash, authorizedHash),
        unauthorizedChange: authorized && sighting.hash !== authorizedHash,
        authorizedHash,
        src: sighting.src,
        pageUrl: sighting.pageUrl,
        changedAt: at.toISOString(),
      },
    },
  ];
}

/** pending until a hash is known, monitored while not authorized, match/mismatch once authorized, blocked. */
export function integrityOf(status: ScriptStatus, currentHash: string | null, authorizedHash: string | null): IntegrityStatus {
  if (status === 'blocked') return 'blocked';
  if (currentHash === null) return 'pending';
  if (status !== 'authorized') return 'monitored';
  return authorizedHash === null || currentHash === authorizedHash ? 'match' : 'mismatch';
}
