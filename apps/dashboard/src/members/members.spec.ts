import { auditLogCollection, type AuditEntryDocument } from '@pss/contracts';
import type { RecordedEvent } from '@pss/event-store';
import { DomainError } from '@pss/kernel';
import { recorded, replayedTwice } from '@pss/testkit';
import { accessDecider, type AccessCommand, type AccessEvent, type StoredPasskey } from '../access/access.decider';
import { MembersProjection } from '../access/members.projection';
import { DASHBOARD_MEMBER_INVITATIONS, DASHBOARD_MEMBERS } from '../access/members.read-model';
import { DashboardAuditLogProjection } from '../audit/dashboard-audit-log.projection';
import { actsIn } from '../access/roles';
import { lastSignIn, parseInvitation, parseRole } from './member-form';

const at = new Date('2026-03-01T12:00:00.000Z');
const passkey = (id: string, lastUsedAt: string | null = null): StoredPasskey => ({ id, publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: at.toISOString(), lastUsedAt });

/** The organization's owner m1 has joined, and invited viewer@shop.example (invitation h2), who joined as m2. */
const history: AccessEvent[] = [
  { type: 'InvitationRedeemed', data: { orgId: 'o1', invitationHash: 'h1', at: at.toISOString(), member: { memberId: 'm1', email: 'me@shop.example', role: { kind: 'organization-owner' }, passkeys: [passkey('c1')], recoveryCodeHashes: [] } } },
  { type: 'MemberInvited', data: { orgId: 'o1', at: at.toISOString(), invitation: { hash: 'h2', email: 'viewer@shop.example', role: { kind: 'viewer' }, expiresAt: at.toISOString() } } },
];
const given = (events: AccessEvent[]) => events.reduce(accessDecider.evolve, accessDecider.initialState());
/** A command of the union without the fields every test gives the same. */
type Given<C> = C extends AccessCommand ? Omit<C, 'orgId' | 'at'> : never;
type Redeem = Extract<Given<AccessCommand>, { type: 'RedeemInvitation' }>;
const when = (events: AccessEvent[], command: Given<AccessCommand>) => accessDecider.decide({ orgId: 'o1', at, ...command } as AccessCommand, given(events));
const joined = (): AccessEvent[] => {
  const redeem: Redeem = { type: 'RedeemInvitation', invitationHash: 'h2', member: { memberId: 'm2', email: 'viewer@shop.example', role: { kind: 'viewer' }, recoveryCodeHashes: [], passkey: passkey('c2') } };
  return [...history, ...when(history, redeem)];
};

describe('members in the access decider', () => {
  it('admits an invited member once, with the role of their invitation, and closes the invitation', () => {
    const events = joined();
    const state = given(events);
    expect(state.members.map((member) => [member.email, member.role.kind])).toEqual([['me@shop.example', 'organization-owner'], ['viewer@shop.example', 'viewer']]);
    expect(state.invitations).toEqual([]);
    const again: Redeem = { type: 'RedeemInvitation', invitationHash: 'h2', member: { memberId: 'm3', email: 'viewer@shop.example', role: { kind: 'viewer' }, recoveryCodeHashes: [], passkey: passkey('c3') } };
    expect(() => when(events, again)).toThrow('This invitation was used already');
    // An invitation never issued on this stream admits nobody, whatever role the command claims.
    expect(() => when(history.slice(0, 1), { ...again, invitationHash: 'forged' })).toThrow('This invitation was used already');
  });

  it('refuses to invite a member again, or anyone as organization owner', () => {
    const invite = (email: string, kind: 'viewer' | 'organization-owner') => ({ type: 'InviteMember', invitation: { hash: 'h9', email, role: { kind }, expiresAt: at.toISOString() } }) as const;
    expect(() => when(joined(), invite('viewer@shop.example', 'viewer'))).toThrow(new DomainError('conflict', 'This person is a member already'));
    expect(() => when(joined(), invite('new@shop.example', 'organization-owner'))).toThrow("The organization owner's role changes only by handing the organization over");
    expect(when(joined(), invite('new@shop.example', 'viewer'))).toEqual([expect.objectContaining({ type: 'MemberInvited' })]);
  });

  it("changes and removes members but never the owner's role, which only a hand-over moves", () => {
    const events = joined();
    const storeOwner = when(events, { type: 'ChangeRole', memberId: 'm2', role: { kind: 'store-owner', storeIds: ['s1'] } });
    expect(given([...events, ...storeOwner]).members[1].role).toEqual({ kind: 'store-owner', storeIds: ['s1'] });
    expect(() => when(events, { type: 'ChangeRole', memberId: 'm1', role: { kind: 'viewer' } })).toThrow("The organization owner's role");
    expect(() => when(events, { type: 'ChangeRole', memberId: 'm2', role: { kind: 'organization-owner' } })).toThrow("The organization owner's role");
    expect(() => when(events, { type: 'RemoveMember', memberId: 'm1' })).toThrow("The organization owner's role");
    const removed = when(events, { type: 'RemoveMember', memberId: 'm2' });
    expect(given([...events, ...removed]).members.map((member) => member.memberId)).toEqual(['m1']);
    expect(() => when([...events, ...removed], { type: 'ChangeRole', memberId: 'm2', role: { kind: 'viewer' } })).toThrow('Member not found');
  });

  it('hands the organization over: exactly one owner afterwards, the former one a viewer', () => {
    const events = joined();
    const handed = when(events, { type: 'HandOverOwnership', fromMemberId: 'm1', toMemberId: 'm2' });
    const owners = given([...events, ...handed]).members.filter((member) => member.role.kind === 'organization-owner');
    expect(owners.map((member) => member.memberId)).toEqual(['m2']);
    expect(given([...events, ...handed]).members.find((member) => member.memberId === 'm1')!.role).toEqual({ kind: 'viewer' });
    expect(() => when([...events, ...handed], { type: 'HandOverOwnership', fromMemberId: 'm1', toMemberId: 'm2' })).toThrow('Only the organization owner can hand the organization over');
    expect(() => when(events, { type: 'HandOverOwnership', fromMemberId: 'm1', toMemberId: 'm1' })).toThrow('Hand the organization over to another member');
  });
});

describe('member forms', () => {
  it('read a viewer, or a store owner of some of the organization’s own stores', () => {
    expect(parseRole({ role: 'viewer', store_s1: 'on' }, ['s1'])).toEqual({ ok: true, value: { kind: 'viewer' } });
    expect(parseRole({ role: 'store-owner', store_s2: 'on', store_s1: 'on' }, ['s1', 's2'])).toEqual({ ok: true, value: { kind: 'store-owner', storeIds: ['s1', 's2'] } });
    expect(parseRole({ role: 'store-owner' }, ['s1'])).toEqual({ ok: false, error: 'members.error.stores' });
    expect(parseRole({ role: 'store-owner', store_elsewhere: 'on' }, ['s1'])).toEqual({ ok: false, error: 'members.error.stores' });
    expect(parseRole({ role: 'organization-owner' }, ['s1'])).toEqual({ ok: false, error: 'members.error.role' });
  });

  it('read an invitation’s address lower-cased and refuse one that is not an address', () => {
    expect(parseInvitation({ email: ' Viewer@Shop.example ', role: 'viewer' }, [])).toEqual({ ok: true, value: { email: 'viewer@shop.example', role: { kind: 'viewer' } } });
    expect(parseInvitation({ email: 'viewer', role: 'viewer' }, [])).toEqual({ ok: false, error: 'members.error.email' });
    expect(parseInvitation({ email: 'a@b.example', role: 'nobody' }, [])).toEqual({ ok: false, error: 'members.error.role' });
  });

  it('show the last sign-in as the latest passkey use', () => {
    expect(lastSignIn({ passkeys: {} })).toBeNull();
    expect(lastSignIn({ passkeys: { a: passkey('a', '2026-03-02T00:00:00.000Z'), b: passkey('b', '2026-03-05T00:00:00.000Z'), c: passkey('c') } })).toBe('2026-03-05T00:00:00.000Z');
  });
});

describe('the members read model and the audit log, replayed twice', () => {
  const by = (actor: string) => (event: AccessEvent): RecordedEvent => ({ ...recorded('dashboard-access-o1', event.type, event.data), metadata: { actor, orgId: 'o1' } });
  const events = (): RecordedEvent[] => {
    const earlier = joined();
    const later = [
      ...when(earlier, { type: 'ChangeRole', memberId: 'm2', role: { kind: 'store-owner', storeIds: ['s1'] } }),
      ...when(earlier, { type: 'HandOverOwnership', fromMemberId: 'm1', toMemberId: 'm2' }),
    ];
    const invitedAgain = when([...earlier, ...later], { type: 'InviteMember', invitation: { hash: 'h3', email: 'gone@shop.example', role: { kind: 'viewer' }, expiresAt: at.toISOString() } });
    return [...earlier.map(by('user:me@shop.example')), ...later.map(by('user:me@shop.example')), ...invitedAgain.map(by('user:viewer@shop.example'))];
  };

  it("keeps each member's role as changed and the open invitations only", async () => {
    const collections = await replayedTwice(MembersProjection, events());
    expect(collections[DASHBOARD_MEMBERS].map(({ _id, role }) => [_id, role])).toEqual([['m1', { kind: 'viewer' }], ['m2', { kind: 'organization-owner' }]]);
    expect(collections[DASHBOARD_MEMBER_INVITATIONS].map(({ _id, email }) => [_id, email])).toEqual([['h3', 'gone@shop.example']]);
  });

  it('records every change with the person who made it', async () => {
    const entries = (await replayedTwice(DashboardAuditLogProjection, events()))[auditLogCollection('dashboard')] as unknown as AuditEntryDocument[];
    expect(entries.map(({ actor, action, target, details }) => [actor, action, target.label ?? target.id, details])).toEqual([
      ['user:me@shop.example', 'member.joined', 'me@shop.example', { role: 'organization-owner', store_ids: [] }],
      ['user:me@shop.example', 'member.invited', 'viewer@shop.example', { role: 'viewer', store_ids: [] }],
      ['user:me@shop.example', 'member.joined', 'viewer@shop.example', { role: 'viewer', store_ids: [] }],
      ['user:me@shop.example', 'member.role_changed', 'viewer@shop.example', { role: 'store-owner', store_ids: ['s1'] }],
      ['user:me@shop.example', 'organization.handed_over', 'o1', { to: 'viewer@shop.example' }],
      ['user:viewer@shop.example', 'member.invited', 'gone@shop.example', { role: 'viewer', store_ids: [] }],
    ]);
  });
});

describe('partners', () => {
  it("let the partner's organization owner, and nobody else, act in its child organizations", () => {
    const owner = { org_id: 'partner', role: { kind: 'organization-owner' } } as const;
    expect(actsIn(owner, { parent_org_id: 'partner' })).toBe(true);
    expect(actsIn(owner, { parent_org_id: 'other-partner' })).toBe(false);
    expect(actsIn(owner, { parent_org_id: null })).toBe(false);
    expect(actsIn({ org_id: 'partner', role: { kind: 'viewer' } }, { parent_org_id: 'partner' })).toBe(false);
    expect(actsIn({ org_id: 'partner', role: { kind: 'store-owner', storeIds: ['s1'] } }, { parent_org_id: 'partner' })).toBe(false);
  });
});
