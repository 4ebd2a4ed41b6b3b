import { createHash, randomBytes } from 'node:crypto';

/**
 * A dashboard invitation (issue 31): inventory issues it with the organization (and `admin org invite`), the
 * dashboard redeems it. The link carries the token; only its hash is stored (in `organizations._owner_invitation`),
 * and the dashboard's access stream records it redeemed, so it works once.
 */
export const INVITATION_VALIDITY_MS = 7 * 24 * 3_600_000;

/** Where the dashboard shows the invitation; redeeming takes a button press there (a POST), never the GET a mail scanner makes. */
export const invitationLink = (publicUrl: string, token: string): string => `${publicUrl}/dashboard/invitations/${token}`;

export const invitationTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, URL-safe (43 characters): unguessable, so a fast hash is enough to store it. */
export function newInvitationToken(now: Date): { token: string; hash: string; expiresAt: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: invitationTokenHash(token), expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS).toISOString() };
}
