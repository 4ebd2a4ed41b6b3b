import { addDays, DomainError, validationError, type Decider, type DomainEvent, type ErrorDetail } from '@pss/kernel';
import { isScope, LAST_USE_RESOLUTION_MS, READ_ONLY_SCOPES, READ_ONLY_SHORTCUT, SCOPES, TOKEN_NAME_MAX, TOKEN_VALIDITY_DAYS } from '@pss/contracts';

/** What a token is issued as: the request asks for it, the event records it (name trimmed, shortcuts expanded). */
interface TokenGrant {
  tokenId: string;
  orgId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: string[];
  /** The bus command that issued it, so its redelivery issues nothing (absent from the admin CLI and before issue 31's fix). */
  commandId?: string;
}

export type TokenEvent =
  | DomainEvent<'TokenIssued', TokenGrant & { issuedAt: string; expiresAt: string | null }>
  | DomainEvent<'TokenRevoked', { tokenId: string; revokedAt: string }>
  | DomainEvent<'TokenUsed', { tokenId: string; usedAt: string }>;

export type TokenCommand =
  | (TokenGrant & {
      type: 'IssueToken';
      /** null = no expiry. */
      validityDays: number | null;
      at: Date;
    })
  | { type: 'RevokeToken'; at: Date }
  | { type: 'RecordTokenUse'; at: Date };

export interface TokenState {
  tokenId?: string;
  orgId?: string;
  issuedBy?: string;
  status: 'none' | 'active' | 'revoked';
  lastUsedAt?: number;
}

export const tokenDecider: Decider<TokenState, TokenCommand, TokenEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueToken': {
        if (isRedelivery(command, state)) return [];
        if (state.status !== 'none') throw new DomainError('conflict', 'Token already issued');
        const scopes = withShortcuts(command.scopes);
        assertValidToken({ ...command, scopes });
        return [
          {
            type: 'TokenIssued',
            data: {
              tokenId: command.tokenId,
              orgId: command.orgId,
              name: command.name.trim(),
              prefix: command.prefix,
              hash: command.hash,
              scopes,
              ...(command.commandId ? { commandId: command.commandId } : {}),
              issuedAt: command.at.toISOString(),
              expiresAt: command.validityDays === null ? null : addDays(command.at, command.validityDays).toISOString(),
            },
          },
        ];
      }
      case 'RevokeToken':
        if (state.status === 'none') throw new DomainError('not_found', 'Token not found');
        if (state.status === 'revoked') return [];
        return [{ type: 'TokenRevoked', data: { tokenId: state.tokenId!, revokedAt: command.at.toISOString() } }];
      case 'RecordTokenUse':
        if (state.status !== 'active') return [];
        if (state.lastUsedAt !== undefined && command.at.getTime() - state.lastUsedAt < LAST_USE_RESOLUTION_MS) return [];
        return [{ type: 'TokenUsed', data: { tokenId: state.tokenId!, usedAt: command.at.toISOString() } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TokenIssued':
        return { tokenId: event.data.tokenId, orgId: event.data.orgId, issuedBy: event.data.commandId, status: 'active' };
      case 'TokenRevoked':
        return { ...state, status: 'revoked' };
      case 'TokenUsed':
        return { ...state, lastUsedAt: Date.parse(event.data.usedAt) };
    }
  },
};

/** The command that issued the token, delivered again: it answers, it does not issue (its secret was another's). */
const isRedelivery = (command: TokenGrant, state: TokenState): boolean =>
  command.commandId !== undefined && command.commandId === state.issuedBy && command.orgId === state.orgId;

/** The scopes a token gets: `read-only` stands for the spec's six read scopes; each scope once. */
export const withShortcuts = (scopes: string[]): string[] =>
  [...new Set(scopes.flatMap((scope) => (scope === READ_ONLY_SHORTCUT ? READ_ONLY_SCOPES : [scope])))];

function assertValidToken(command: Extract<TokenCommand, { type: 'IssueToken' }>): void {
  const details: ErrorDetail[] = [];
  const name = command.name.trim();
  if (name.length === 0) details.push({ field: 'name', message: 'name is required' });
  if (name.length > TOKEN_NAME_MAX) details.push({ field: 'name', message: `name must be at most ${TOKEN_NAME_MAX} characters` });
  if (command.scopes.length === 0) details.push({ field: 'scopes', message: 'at least one scope is required' });
  const unknown = command.scopes.filter((scope) => !isScope(scope));
  if (unknown.length) details.push({ field: 'scopes', message: `unknown scopes: ${unknown.join(', ')}; valid scopes: ${SCOPES.join(', ')} (or ${READ_ONLY_SHORTCUT})` });
  if (command.validityDays !== null && !(TOKEN_VALIDITY_DAYS as readonly number[]).includes(command.validityDays)) {
    details.push({ field: 'expires_days', message: `validity must be no expiry or one of ${TOKEN_VALIDITY_DAYS.join(', ')} days` });
  }
  if (details.length) throw validationError(details);
}

export const tokenStream = (tokenId: string): string => `token-${tokenId}`;
