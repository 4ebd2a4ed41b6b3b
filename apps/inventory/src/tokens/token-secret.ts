import { randomBytes } from 'node:crypto';
import { hashToken, TOKEN_LITERAL, tokenPrefix } from '@pss/contracts';

export interface GeneratedToken {
  token: string;
  prefix: string;
  hash: string;
}

/** A new token in the documented format; 224 random bits. */
export function generateToken(random: (size: number) => Buffer = randomBytes): GeneratedToken {
  const token = `${TOKEN_LITERAL}${random(12).toString('hex')}_${random(16).toString('hex')}`;
  return { token, prefix: tokenPrefix(token), hash: hashToken(token) };
}
