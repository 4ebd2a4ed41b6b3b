import { DomainError } from '@pss/kernel';
import { deciderSpec } from '@pss/testkit';
import { accessDecider, type AccessCommand, type AccessEvent, type StoredPasskey } from '../access/access.decider';
import { translator } from '../i18n/catalogue';
import { memberRefusal } from './member-refusals';

const at = new Date('2026-03-01T12:00:00.000Z');
const passkey = (id: string): StoredPasskey => ({ id, publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: at.toISOString(), lastUsedAt: null });
const member = (memberId: string, email: string, kind: 'organization-owner' | 'viewer') => ({ memberId, email, role: { kind }, passkeys: [passkey(`c-${memberId}`)], recoveryCodeHashes: [] });

/** As stored on `dashboard-access-o1`: the owner m1 joined, invited the viewer m2 (who joined) and new@ (who has not). */
const ownerJoined: AccessEvent = { type: 'InvitationRedeemed', data: { orgId: 'o1', invitationHash: 'h1', at: at.toISOString(), member: member('m1', 'me@shop.example', 'organization-owner') } };
const viewerInvited: AccessEvent = { type: 'MemberInvited', data: { orgId: 'o1', at: at.toISOString(), invitation: { hash: 'h2', email: 'viewer@shop.example', role: { kind: 'viewer' }, expiresAt: at.toISOString() } } };
const viewerJoined: AccessEvent = { type: 'InvitationRedeemed', data: { orgId: 'o1', invitationHash: 'h2', at: at.toISOString(), member: member('m2', 'viewer@shop.example', 'viewer') } };
const newcomerInvited: AccessEvent = { type: 'MemberInvited', data: { orgId: 'o1', at: at.toISOString(), invitation: { hash: 'h3', email: 'new@shop.example', role: { kind: 'viewer' }, expiresAt: at.toISOString() } } };
const viewerRemoved: AccessEvent = { type: 'MemberRemoved', data: { orgId: 'o1', memberId: 'm2', email: 'viewer@shop.example', at: at.toISOString() } };
const handedOver: AccessEvent = { type: 'OwnershipHandedOver', data: { orgId: 'o1', fromMemberId: 'm1', toMemberId: 'm2', toEmail: 'viewer@shop.example', at: at.toISOString() } };
const stored = [ownerJoined, viewerInvited, viewerJoined, newcomerInvited];

const spec = deciderSpec(accessDecider);
/** A command of the union without the fields every test gives the same. */
type Change<C> = C extends AccessCommand ? Omit<C, 'orgId' | 'at'> : never;
const command = (change: Change<AccessCommand>) => ({ orgId: 'o1', at, ...change }) as AccessCommand;
const handOver = (fromMemberId: string, toMemberId: string) => command({ type: 'HandOverOwnership', fromMemberId, toMemberId });
const viewer = { kind: 'viewer' } as const;

/** The refusal the decider throws for `when` given `events`, as the members page answers it in each language. */
function answered(events: AccessEvent[], when: AccessCommand) {
  let refusal: unknown;
  try {
    accessDecider.decide(when, events.reduce(accessDecider.evolve, accessDecider.initialState()));
  } catch (error) {
    refusal = error;
  }
  if (!(refusal instanceof DomainError)) throw new Error(`${when.type} was not refused`);
  const ptBR = memberRefusal(translator('pt-BR'), refusal);
  return { status: ptBR.status, 'pt-BR': ptBR.message, en: memberRefusal(translator('en'), refusal).message };
}

describe("the access decider's refusals of the members' commands, as the members page answers them", () => {
  it('refuses handing the organization over to oneself: 400, said in the person’s language', () => {
    spec.given(stored).when(handOver('m1', 'm1')).thenThrows('validation_error', 'Hand the organization over to another member');
    expect(answered(stored, handOver('m1', 'm1'))).toEqual({
      status: 400,
      'pt-BR': 'Você já é o proprietário da organização: passe-a a outro membro.',
      en: 'You are the organization owner already: hand it over to another member.',
    });
  });

  it('refuses handing over to an invited person who has no passkey yet, or changing a member who left: 404', () => {
    const notMember = {
      status: 404,
      'pt-BR': 'Esta pessoa não é (ou não é mais) membro desta organização: quem foi convidado entra na lista ao aceitar o convite.',
      en: 'This person is not (or no longer) a member of this organization: an invited person is listed once they accept the invitation.',
    };
    // The invited new@ is no member until their invitation is redeemed with a passkey: no member id names them.
    spec.given(stored).when(handOver('m1', 'h3')).thenThrows('not_found', 'Member not found');
    expect(answered(stored, handOver('m1', 'h3'))).toEqual(notMember);
    const left = [...stored, viewerRemoved];
    for (const change of [command({ type: 'ChangeRole', memberId: 'm2', role: viewer }), command({ type: 'RemoveMember', memberId: 'm2' }), handOver('m1', 'm2')]) {
      spec.given(left).when(change).thenThrows('not_found', 'Member not found');
      expect(answered(left, change)).toEqual(notMember);
    }
  });

  it("refuses a former owner's hand-over (a second tab) with the members page's owner-only words: 403", () => {
    const after = [...stored, handedOver];
    spec.given(after).when(handOver('m1', 'm2')).thenThrows('forbidden');
    expect(answered(after, handOver('m1', 'm2'))).toEqual({
      status: 403,
      'pt-BR': 'Apenas o proprietário da organização pode gerenciar membros.',
      en: 'Only the organization owner can manage members.',
    });
  });

  it("refuses changing the owner's role or removing them, and inviting a member again: 400 and 409", () => {
    for (const change of [command({ type: 'ChangeRole', memberId: 'm1', role: viewer }), command({ type: 'RemoveMember', memberId: 'm1' })]) {
      spec.given(stored).when(change).thenThrows('validation_error', "The organization owner's role");
      expect(answered(stored, change)).toMatchObject({ status: 400, 'pt-BR': 'O papel do proprietário da organização só muda quando ele passa a organização a outro membro.' });
    }
    const again = command({ type: 'InviteMember', invitation: { hash: 'h9', email: 'viewer@shop.example', role: viewer, expiresAt: at.toISOString() } });
    spec.given(stored).when(again).thenThrows('conflict', 'This person is a member already');
    expect(answered(stored, again)).toEqual({ status: 409, 'pt-BR': 'Esta pessoa já é membro.', en: 'This person is a member already.' });
  });

  it('answers a lost race on the access stream as a conflict to retry, and a refusal it does not know as a 4xx in the service’s words', () => {
    const busy = new DomainError('service_unavailable', 'Too many concurrent changes to the same resource; retry shortly');
    expect(memberRefusal(translator('pt-BR'), busy)).toEqual({ status: 409, message: 'Outra mudança nos membros foi feita ao mesmo tempo. Tente de novo em instantes.' });
    expect(memberRefusal(translator('pt-BR'), new DomainError('plan_limit', 'Your plan allows 3 members'))).toEqual({ status: 409, message: 'Your plan allows 3 members' });
  });
});
