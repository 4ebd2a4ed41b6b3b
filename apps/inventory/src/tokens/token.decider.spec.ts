import { deciderSpec } from '@pss/testkit';
import { tokenDecider, type TokenEvent } from './token.decider';

const at = new Date('2026-01-10T12:00:00.000Z');
const issue = {
  type: 'IssueToken' as const,
  tokenId: 'tok-1',
  orgId: 'org-1',
  name: 'CI',
  prefix: 'pss_tok_000000000000000000000000',
  hash: 'a'.repeat(64),
  scopes: ['stores:read', 'stores:read', 'scripts:read'],
  validityDays: 30,
  at,
};
const issued: TokenEvent = {
  type: 'TokenIssued',
  data: {
    tokenId: 'tok-1',
    orgId: 'org-1',
    name: 'CI',
    prefix: issue.prefix,
    hash: issue.hash,
    scopes: ['stores:read', 'scripts:read'],
    issuedAt: '2026-01-10T12:00:00.000Z',
    expiresAt: '2026-02-09T12:00:00.000Z',
  },
};
const spec = deciderSpec(tokenDecider);

describe('token decider', () => {
  it('issues a token with its expiry and deduplicated scopes', () => {
    spec.given([]).when(issue).then([issued]);
  });

  it('issues a token without expiry', () => {
    spec.given([]).when({ ...issue, validityDays: null }).then([{ ...issued, data: { ...issued.data, expiresAt: null } }] as TokenEvent[]);
  });

  it.each([
    ['an empty name', { name: '  ' }, /name is required/],
    ['a name over 80 characters', { name: 'x'.repeat(81) }, /at most 80/],
    ['no scope', { scopes: [] }, /at least one scope/],
    ['an unknown scope', { scopes: ['stores:admin'] }, /unknown scopes: stores:admin; valid scopes: stores:read, stores:write, pages:write, .*, usage:read \(or read-only\)"/],
    ['a validity not offered', { validityDays: 7 }, /no expiry or one of 30, 90, 365/],
  ])('refuses %s', (_case, change, message) => {
    spec.given([]).when({ ...issue, ...change }).thenThrows('validation_error', message);
  });

  it('expands the read-only shortcut to exactly the six read scopes the spec lists, each once', () => {
    const scopes = (events: TokenEvent[]) => (events[0].data as { scopes: string[] }).scopes;
    const readOnly = ['stores:read', 'scripts:read', 'policies:read', 'alerts:read', 'reports:read', 'usage:read'];
    expect(scopes(tokenDecider.decide({ ...issue, scopes: ['read-only'] }, tokenDecider.initialState()))).toEqual(readOnly);
    expect(scopes(tokenDecider.decide({ ...issue, scopes: ['stores:read', 'read-only', 'webhooks:manage'] }, tokenDecider.initialState()))).toEqual([
      ...readOnly,
      'webhooks:manage',
    ]);
  });

  it('accepts a name of exactly 80 characters', () => {
    expect(tokenDecider.decide({ ...issue, name: 'x'.repeat(80) }, tokenDecider.initialState())).toHaveLength(1);
  });

  describe('a redelivered issue command (issue 31)', () => {
    const byCommand = (commandId: string | undefined) => ({ ...issue, commandId, hash: 'b'.repeat(64) });
    const issuedBy: TokenEvent = { ...issued, data: { ...issued.data, commandId: 'cmd-1' } };

    it('records the command that issued the token', () => {
      spec.given([]).when({ ...issue, commandId: 'cmd-1' }).then([issuedBy]);
    });

    it('issues nothing when the stored token came from the same command, revoked or not', () => {
      spec.given([issuedBy]).when(byCommand('cmd-1')).thenNothingHappens();
      spec.given([issuedBy, { type: 'TokenRevoked', data: { tokenId: 'tok-1', revokedAt: at.toISOString() } }]).when(byCommand('cmd-1')).thenNothingHappens();
    });

    it('still refuses a second issue by another command, by none, or for another organization', () => {
      spec.given([issuedBy]).when(byCommand('cmd-2')).thenThrows('conflict', 'Token already issued');
      spec.given([issuedBy]).when(byCommand(undefined)).thenThrows('conflict');
      spec.given([issuedBy]).when({ ...byCommand('cmd-1'), orgId: 'org-2' }).thenThrows('conflict');
      spec.given([issued]).when(byCommand('cmd-1')).thenThrows('conflict');
    });
  });

  it('revokes once; revoking again changes nothing', () => {
    const revoked: TokenEvent = { type: 'TokenRevoked', data: { tokenId: 'tok-1', revokedAt: at.toISOString() } };
    spec.given([issued]).when({ type: 'RevokeToken', at }).then([revoked]);
    spec.given([issued, revoked]).when({ type: 'RevokeToken', at }).thenNothingHappens();
  });

  it('cannot revoke a token that was never issued', () => {
    spec.given([]).when({ type: 'RevokeToken', at }).thenThrows('not_found');
  });

  it('records use at most once a minute', () => {
    const used: TokenEvent = { type: 'TokenUsed', data: { tokenId: 'tok-1', usedAt: at.toISOString() } };
    spec.given([issued]).when({ type: 'RecordTokenUse', at }).then([used]);
    spec.given([issued, used]).when({ type: 'RecordTokenUse', at: new Date(at.getTime() + 59_999) }).thenNothingHappens();
    spec
      .given([issued, used])
      .when({ type: 'RecordTokenUse', at: new Date(at.getTime() + 60_000) })
      .then([{ type: 'TokenUsed', data: { tokenId: 'tok-1', usedAt: '2026-01-10T12:01:00.000Z' } }]);
  });

  it('records no use of a revoked token', () => {
    spec
      .given([issued, { type: 'TokenRevoked', data: { tokenId: 'tok-1', revokedAt: at.toISOString() } }])
      .when({ type: 'RecordTokenUse', at })
      .thenNothingHappens();
  });
});
