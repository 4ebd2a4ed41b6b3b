import { API_TOKENS, type ApiTokenDocument } from '@pss/contracts';
import { canHandle } from '@pss/event-store';
import { applyOnce, readModelProjection } from '@pss/projections';
import type { TokenEvent } from './token.decider';

const isTokenEvent = canHandle<TokenEvent>({
  TokenIssued: true,
  TokenRevoked: true,
  TokenUsed: true,
});

/** `api_tokens`: what the gateway authenticates against and the admin CLI lists. Hashes only, never tokens. */
export class TokenProjection extends readModelProjection({
  name: 'api_tokens',
  streamPrefixes: ['token-'],
  collections: {
    [API_TOKENS]: [
      { key: { prefix: 1 }, unique: true },
      { key: { org_id: 1, created_at: -1 } },
    ],
  },
  canHandle: isTokenEvent,
  async evolve(event, context) {
    const tokens = context.collection<ApiTokenDocument>(API_TOKENS);
    switch (event.type) {
      case 'TokenIssued': {
        const { data } = event;
        await applyOnce(tokens, data.tokenId, event, {
          $set: {
            org_id: data.orgId,
            name: data.name,
            prefix: data.prefix,
            hash: data.hash,
            scopes: data.scopes,
            created_at: data.issuedAt,
            expires_at: data.expiresAt,
            revoked_at: null,
            last_used_at: null,
          },
        }, { upsert: true });
        return;
      }
      case 'TokenRevoked':
        await applyOnce(tokens, event.data.tokenId, event, { $set: { revoked_at: event.data.revokedAt } });
        return;
      case 'TokenUsed':
        await applyOnce(tokens, event.data.tokenId, event, { $set: { last_used_at: event.data.usedAt } });
        return;
    }
  },
}) {}
