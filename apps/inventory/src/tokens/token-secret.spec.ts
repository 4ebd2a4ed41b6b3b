import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEGACY_TOKEN_LITERAL, TOKEN_LENGTH, TOKEN_LITERAL, TOKEN_PATTERN, TOKEN_SCANNER_PATTERN, tokenMatchesHash } from '@pss/contracts';
import { generateToken } from './token-secret';

describe('API token secret', () => {
  it('has the documented format: 8-character literal, 24 characters, _, 32 characters', () => {
    const { token, prefix } = generateToken();
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(token).toMatch(TOKEN_PATTERN);
    expect(token[32]).toBe('_');
    expect(prefix).toBe(token.slice(0, 32));
  });

  it("starts with the product's own literal, never Stripe's, so scanners do not report it as a Stripe key", () => {
    const { token } = generateToken();
    expect(TOKEN_LITERAL).toHaveLength(8);
    expect(token.startsWith(TOKEN_LITERAL)).toBe(true);
    expect(token.startsWith('sk_live_')).toBe(false);
  });

  it('still accepts tokens issued with the legacy literal, and nothing else of that shape', () => {
    const tail = `${'a'.repeat(24)}_${'b'.repeat(32)}`;
    expect(`${LEGACY_TOKEN_LITERAL}${tail}`).toMatch(TOKEN_PATTERN);
    expect(`sk_test_${tail}`).not.toMatch(TOKEN_PATTERN);
    expect(`xx_tok_${tail}`).not.toMatch(TOKEN_PATTERN);
  });

  it('is found inside leaked text by the scanner pattern docs/api.md publishes', () => {
    const { token } = generateToken();
    const pattern = new RegExp(TOKEN_SCANNER_PATTERN.source, 'g');
    expect(`export API_TOKEN="${token}"\nother=${token.replace(/^.{8}/, 'xxxxxxxx')}`.match(pattern)).toEqual([token]);
    expect(`${token}0`).not.toMatch(TOKEN_SCANNER_PATTERN);
    const apiDocs = readFileSync(join(__dirname, '../../../../docs/api.md'), 'utf8');
    expect(apiDocs).toContain(`\`${TOKEN_SCANNER_PATTERN.source}\``);
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
