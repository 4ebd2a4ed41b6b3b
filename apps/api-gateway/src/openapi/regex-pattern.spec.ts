import { patternOf } from './regex-pattern';

describe('patternOf', () => {
  it('keeps a pattern without flags as it is', () => {
    expect(patternOf(/^[A-Za-z]{2}$/)).toBe('^[A-Za-z]{2}$');
    expect(patternOf(/^\/\S*$/g)).toBe('^\\/\\S*$');
  });

  it('spells out case-insensitivity, which a JSON Schema pattern cannot flag', () => {
    expect(patternOf(/^[a-z0-9_-]{1,32}$/i)).toBe('^[a-zA-Z0-9_-]{1,32}$');
    expect(patternOf(/^(\*\.)?[a-z0-9.-]+$/i)).toBe('^(\\*\\.)?[a-zA-Z0-9.-]+$');
    expect(patternOf(/^pix\d$/i)).toBe('^[pP][iI][xX]\\d$');
    expect(patternOf(/^[^A-C]$/i)).toBe('^[^A-Ca-c]$');
    expect(patternOf(/^(?<key>ab)$/i)).toBe('^(?<key>[aA][bB])$');
  });

  it('matches what the flagged expression matches', () => {
    const cases: [RegExp, string[]][] = [
      [/^[a-z0-9_-]{1,32}$/i, ['pix', 'PIX', 'Pix_2', '', 'pi x', 'ç']],
      [/^(\*\.)?[a-z0-9.-]+$/i, ['*.Example.COM', 'a-b.c', '*.', 'x_y']],
      [/^x[^b-d]z$/i, ['xaz', 'XAZ', 'xbz', 'xBz', 'xez']],
    ];
    for (const [regex, samples] of cases) {
      const pattern = new RegExp(patternOf(regex) as string, 'u');
      for (const sample of samples) expect([sample, pattern.test(sample)]).toEqual([sample, regex.test(sample)]);
    }
  });

  it('gives up where flags or escapes hide what matches', () => {
    expect(patternOf(/^a$/m)).toBeUndefined();
    expect(patternOf(/^a.b$/s)).toBeUndefined();
    expect(patternOf(/^\u0061$/i)).toBeUndefined();
    expect(patternOf(/^(a)\1$/i)).toBeUndefined();
  });

  it('gives up on a source that is not valid with Unicode semantics, as JSON Schema validators read it', () => {
    expect(patternOf(/^[\w-x]$/)).toBeUndefined();
  });
});
