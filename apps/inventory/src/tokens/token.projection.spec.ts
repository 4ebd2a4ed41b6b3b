import { API_TOKENS } from '@pss/contracts';
import { expectReplayedTwice, storedEventsOf } from '@pss/testkit';
import type { TokenEvent } from './token.decider';
import { TokenProjection } from './token.projection';

const stored = storedEventsOf<TokenEvent>('token');

const issued = (tokenId: string, prefix: string) =>
  stored(tokenId, 'TokenIssued', { tokenId, orgId: 'o1', name: 'CI', prefix, hash: 'd'.repeat(64), scopes: ['scripts:read'], issuedAt: 'T1', expiresAt: 'T99' });

/** Every token event handled twice in a row, then the whole log again: the same tokens as once. */
describe('TokenProjection replayed twice', () => {
  it('shows each token’s hash, never the token, with its last use and revocation', async () => {
    const events = [
      issued('t1', 'pss_ab12'),
      issued('t2', 'pss_cd34'),
      stored('t1', 'TokenUsed', { tokenId: 't1', usedAt: 'T2' }),
      stored('t1', 'TokenUsed', { tokenId: 't1', usedAt: 'T3' }),
      stored('t1', 'TokenRevoked', { tokenId: 't1', revokedAt: 'T4' }),
    ];
    await expectReplayedTwice(TokenProjection, events, API_TOKENS, [
      {
        _id: 't1',
        org_id: 'o1',
        name: 'CI',
        prefix: 'pss_ab12',
        hash: 'd'.repeat(64),
        scopes: ['scripts:read'],
        created_at: 'T1',
        expires_at: 'T99',
        last_used_at: 'T3',
        revoked_at: 'T4',
      },
      { _id: 't2', prefix: 'pss_cd34', last_used_at: null, revoked_at: null },
    ]);
  });
});
