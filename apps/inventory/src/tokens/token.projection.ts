import { Injectable } from '@nestjs/common';
import { API_TOKENS, type ApiTokenDocument } from '@pss/contracts';
import { canHandle, type RecordedEvent } from '@pss/event-store';
import { ReadModelProjection } from '@pss/platform';
import { applyOnce, type Projection, type ProjectionContext } from '@pss/projections';
import type { TokenEvent } from './token.decider';

const isTokenEvent = canHandle<TokenEvent>({
  TokenIssued: true,
  TokenRevoked: true,
  TokenUsed: true,
});

/** `api_tokens`: what the gateway authenticates against and the admin CLI lists. Hashes only, never tokens. */
@ReadModelProjection()
@Injectable()
export class TokenProjection implements Projection {
  readonly name = 'api_tokens';
  readonly filter = { streamPrefixes: ['token-'] };
  readonly collections: Projection['collections'] = {
    [API_TOKENS]: [
      { key: { prefix: 1 }, unique: true },
      { key: { org_id: 1, created_at: -1 } },
    ],
  };

  async handle(recorded: RecordedEvent, context: ProjectionContext): Promise<void> {
    const tokens = context.collection<ApiTokenDocument>(API_TOKENS);
    if (!isTokenEvent(recorded)) return;
    const event = recorded;
    switch (event.type) {
      case 'TokenIssued': {
        const { data } = event;
        await applyOnce(tokens, data.tokenId, recorded, {
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
        await applyOnce(tokens, event.data.tokenId, recorded, { $set: { revoked_at: event.data.revokedAt } });
        return;
      case 'TokenUsed':
        await applyOnce(tokens, event.data.tokenId, recorded, { $set: { last_used_at: event.data.usedAt } });
        return;
    }
  }
}
