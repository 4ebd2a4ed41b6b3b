import { TOKEN_LENGTH, TOKEN_PATTERN, tokenMatchesHash } from '@pss/contracts';
import { generateToken } from './token-secret';

describe('API token secret', () => {
  it('has the documented format: 8-character literal, 24 characters, _, 32 characters', () => {
    const { token, prefix } = generateToken();
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(token).toMatch(TOKEN_PATTERN);
    expect(token[32]).toBe('_');
    expect(prefix).toBe(token.slice(0, 32));
  });

  it('stores a SHA-256 hash that matches only its own token', () => {
    const first = generateToken();
    const second = generateToken();
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenMatchesHash(first.token, first.hash)).toBe(true);
    expect(tokenMatchesHash(second.token, first.hash)).toBe(false);
    expect(first.token).not.toBe(second.token);
  });
});
