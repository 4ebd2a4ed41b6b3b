import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { StoredPasskey } from './access.decider';

/**
 * The relying party is the dashboard's public address: its host is the rpID (localhost in embedded mode), its
 * origin the only one a passkey answer may come from. A passkey made for one PUBLIC_URL works on no other.
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export const relyingPartyOf = (publicUrl: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Payment Page Script Security' };
};

/** What every answer is checked against: this challenge, from this origin, for this relying party, the user verified. */
const expected = (rp: RelyingParty, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: rp.origin,
  expectedRPID: rp.id,
  requireUserVerification: true,
});

/** A stored passkey as the browser is told of it: its id, and how it may be reached. */
const credentialOf = (passkey: StoredPasskey) => ({ id: passkey.id, transports: passkey.transports as AuthenticatorTransportFuture[] });

/** Registration: a discoverable credential (sign-in needs no e-mail), verified by the user (PIN, biometrics). */
export function registrationOptions(
  rp: RelyingParty,
  person: { memberId: string; email: string },
  existing: StoredPasskey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: person.email,
    userID: new TextEncoder().encode(person.memberId),
    attestationType: 'none',
    excludeCredentials: existing.map(credentialOf),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** The new passkey, or null when the answer is not for this challenge, origin and relying party. */
export async function verifiedRegistration(rp: RelyingParty, challenge: string, answer: unknown, at: Date): Promise<StoredPasskey | null> {
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response: answer as RegistrationResponseJSON,
      ...expected(rp, challenge),
    });
    if (!verified) return null;
    const { credential } = registrationInfo;
    return {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      createdAt: at.toISOString(),
      lastUsedAt: null,
    };
  } catch {
    return null;
  }
}

/** Sign-in and step-up: any of the person's passkeys (none listed: the browser offers the discoverable ones). */
export function authenticationOptions(rp: RelyingParty, allowed: StoredPasskey[] = []): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: allowed.map(credentialOf),
  });
}

/** The credential id an authentication answer names, to find its passkey by; undefined for what is no answer. */
export const answeredCredentialId = (answer: unknown): string | undefined => {
  const id = (answer as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length <= 1024 ? id : undefined;
};

/** The passkey's new signature counter, or null when the answer does not verify against it. */
export async function verifiedAuthentication(rp: RelyingParty, challenge: string, answer: unknown, passkey: StoredPasskey): Promise<number | null> {
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: answer as AuthenticationResponseJSON,
      ...expected(rp, challenge),
      credential: { ...credentialOf(passkey), publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter },
    });
    return verified ? authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
