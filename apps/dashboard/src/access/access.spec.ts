import { invitationTokenHash, newInvitationToken } from '@pss/contracts/dashboard-invitation';
import { DomainError } from '@pss/kernel';
import { AttemptLimiter } from '../http/attempt-limiter';
import { accessDecider, type AccessEvent, type AccessState, type StoredPasskey } from './access.decider';
import { newRecoveryCodes, normalizeRecoveryCode, recoveryCodeHash, RECOVERY_CODE_COUNT } from './recovery-codes';
import { allows, REQUIRES_MEMBER, REQUIRES_ORGANIZATION_OWNER, requiresStoreOwner } from './roles';
import { csrfMatches, newSession, recentPasskey, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionState } from './session';

const at = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('dashboard sessions', () => {
  it('end after 30 idle minutes, or 12 hours whatever the activity', () => {
    const session = newSession(at);
    expect(sessionState(session, later(SESSION_IDLE_MS - 1))).toBe('live');
    expect(sessionState(session, later(SESSION_IDLE_MS))).toBe('idle');
    const busy = { ...session, lastSeenAt: later(SESSION_ABSOLUTE_MS - 60_000).toISOString() };
    expect(sessionState(busy, later(SESSION_ABSOLUTE_MS - 1))).toBe('live');
    expect(sessionState(busy, later(SESSION_ABSOLUTE_MS))).toBe('expired');
  });

  it("accept a form only with the session's own CSRF token", () => {
    const session = newSession(at);
    expect(csrfMatches(session, session.csrf)).toBe(true);
    expect(csrfMatches(session, newSession(at).csrf)).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, '')).toBe(false);
  });

  it('count a passkey check as recent for 5 minutes; a recovery code sign-in is none', () => {
    expect(recentPasskey({ passkeyAt: at.toISOString() }, later(5 * 60_000 - 1))).toBe(true);
    expect(recentPasskey({ passkeyAt: at.toISOString() }, later(5 * 60_000))).toBe(false);
    expect(recentPasskey({}, at)).toBe(false);
  });
});

describe('roles', () => {
  it('let the organization owner do everything, a store owner their stores, a viewer read', () => {
    const owner = { kind: 'organization-owner' as const };
    const storeOwner = { kind: 'store-owner' as const, storeIds: ['s1'] };
    const viewer = { kind: 'viewer' as const };
    expect([owner, storeOwner, viewer].map((role) => allows(role, REQUIRES_MEMBER))).toEqual([true, true, true]);
    expect([owner, storeOwner, viewer].map((role) => allows(role, REQUIRES_ORGANIZATION_OWNER))).toEqual([true, false, false]);
    expect([owner, storeOwner, viewer].map((role) => allows(role, requiresStoreOwner('s1')))).toEqual([true, true, false]);
    expect(allows(storeOwner, requiresStoreOwner('s2'))).toBe(false);
  });
});

describe('invitation tokens and recovery codes', () => {
  it('give an unguessable invitation token valid 7 days, stored as its hash', () => {
    const { token, hash, expiresAt } = newInvitationToken(at);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(invitationTokenHash(token));
    expect(hash).not.toContain(token);
    expect(expiresAt).toBe('2026-03-08T12:00:00.000Z');
    expect(newInvitationToken(at).token).not.toBe(token);
  });

  it('issue ten distinct codes, hashed, that match however they are typed', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    expect(codes[0]).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(hashes[0]).toBe(recoveryCodeHash(` ${codes[0].toUpperCase().replace(/-/g, ' ')} `));
    expect(normalizeRecoveryCode('ABCD EFGH IJKL MNOP')).toBe('abcd-efgh-1jk1-mn0p');
    expect(hashes).not.toContain(recoveryCodeHash('0000-0000-0000-0000'));
  });
});

describe('the access decider', () => {
  const passkey: StoredPasskey = { id: 'cred-1', publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: at.toISOString(), lastUsedAt: null };
  const redeem = (state: AccessState, invitationHash = 'h1') =>
    accessDecider.decide(
      { type: 'RedeemInvitation', orgId: 'o1', invitationHash, member: { memberId: 'm1', email: 'me@shop.example', role: { kind: 'organization-owner' }, recoveryCodeHashes: ['r1', 'r2'], passkey }, at },
      state,
    );
  const given = (events: AccessEvent[]) => events.reduce(accessDecider.evolve, accessDecider.initialState());

  it('redeems an invitation once: the owner joins with the passkey and the recovery codes', () => {
    const events = redeem(given([]));
    expect(events).toEqual([{ type: 'InvitationRedeemed', data: expect.objectContaining({ invitationHash: 'h1', member: expect.objectContaining({ passkeys: [passkey], recoveryCodeHashes: ['r1', 'r2'] }) }) }]);
    expect(() => redeem(given(events))).toThrow(new DomainError('conflict', 'This invitation was used already'));
  });

  it('keeps a member who redeems a newer invitation, adding the passkey and replacing the codes', () => {
    const second = { ...passkey, id: 'cred-2' };
    const state = given(redeem(given([])));
    const [event] = accessDecider.decide(
      { type: 'RedeemInvitation', orgId: 'o1', invitationHash: 'h2', member: { memberId: 'm9', email: 'me@shop.example', role: { kind: 'organization-owner' }, recoveryCodeHashes: ['r3'], passkey: second }, at },
      state,
    );
    const after = given([...redeem(given([])), event]);
    expect(after.members).toEqual([expect.objectContaining({ memberId: 'm1', passkeys: [passkey, second], recoveryCodeHashes: ['r3'] })]);
  });

  it('spends each recovery code once and records each passkey use with its counter', () => {
    let state = given(redeem(given([])));
    state = given([...redeem(given([])), ...accessDecider.decide({ type: 'UseRecoveryCode', orgId: 'o1', memberId: 'm1', codeHash: 'r1', at }, state)]);
    expect(state.members[0].recoveryCodeHashes).toEqual(['r2']);
    expect(() => accessDecider.decide({ type: 'UseRecoveryCode', orgId: 'o1', memberId: 'm1', codeHash: 'r1', at }, state)).toThrow('Wrong e-mail or recovery code');
    const [used] = accessDecider.decide({ type: 'UsePasskey', orgId: 'o1', memberId: 'm1', passkeyId: 'cred-1', counter: 7, at }, state);
    expect(accessDecider.evolve(state, used).members[0].passkeys[0]).toEqual({ ...passkey, counter: 7, lastUsedAt: at.toISOString() });
  });
});

describe('attempt limits', () => {
  it('refuse past the limit within the window, with the seconds left, and allow again after it', () => {
    const limiter = new AttemptLimiter({ attempts: 2, windowMs: 60_000 });
    expect([limiter.attempt('k', at), limiter.attempt('k', later(1000)), limiter.attempt('k', later(30_000))]).toEqual([0, 0, 30]);
    expect(limiter.attempt('other', later(30_000))).toBe(0);
    expect(limiter.attempt('k', later(60_000))).toBe(0);
  });
});
