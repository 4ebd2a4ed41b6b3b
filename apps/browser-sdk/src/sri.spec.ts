import { createHash } from 'node:crypto';
import { checkedTokens, refusedIntegrity } from './sri';

const token = (algorithm: 'sha256' | 'sha384' | 'sha512', text: string) => `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;
const served = 'window.vendor = 1;';
const bytes = new TextEncoder().encode(served);

describe('what the browser checks of an integrity attribute', () => {
  it('checks the tokens of the strongest algorithm only, options cut, invalid tokens ignored', () => {
    const attribute = `${token('sha256', 'a')}  ${token('sha512', 'b')}?ct=application/javascript md5-xyz ${token('sha512', 'c')}`;
    expect(checkedTokens(attribute)).toEqual([token('sha512', 'b'), token('sha512', 'c')]);
    expect(checkedTokens(`${token('sha256', 'a')} ${token('sha384', 'b')}`)).toEqual([token('sha384', 'b')]);
  });

  it('checks nothing when no token is valid (the browser then runs the script)', () => {
    expect(checkedTokens('')).toEqual([]);
    expect(checkedTokens('sha1-abc md5-def')).toEqual([]);
  });
});

describe('a refusal, from the bytes served and the checked tokens', () => {
  const own = token('sha384', served);

  it.each(['sha256', 'sha384', 'sha512'] as const)('is none when a %s token names the bytes', async (algorithm) => {
    expect(await refusedIntegrity(bytes, own, [token(algorithm, 'other'), token(algorithm, served)])).toBeUndefined();
  });

  it.each(['sha256', 'sha384', 'sha512'] as const)('gives the %s tokens none of which names the bytes', async (algorithm) => {
    const pinned = [token(algorithm, 'the content the shop pinned')];
    expect(await refusedIntegrity(bytes, own, pinned)).toBe(pinned[0]);
  });

  it('sends at most four tokens, and none without an integrity attribute', async () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((text) => token('sha384', text));
    expect(await refusedIntegrity(bytes, own, many)).toBe(many.slice(0, 4).join(' '));
    expect(await refusedIntegrity(bytes, own, [])).toBeUndefined();
  });
});
