import { TextFitter } from './text-fitter';

/** Every character 1 unit wide at size 1: a line of width 10 at size 1 holds 9 characters (97 % of it). */
const fitter = new TextFitter(() => 1);
const lines = (text: string, width = 10) => fitter.lines(text, 1, width);

describe('TextFitter', () => {
  it('breaks after a space, keeping words whole', () => {
    expect(lines('the quick brown fox')).toEqual(['the quick', 'brown fox']);
  });

  it('breaks a word too long for the line after URL punctuation, else anywhere', () => {
    expect(lines('https://cdn.example.com/a/b.js')).toEqual(['https://', 'cdn.examp', 'le.com/a/', 'b.js']);
    expect(lines('sha384-AAAAAAAAAAAAAAAA')).toEqual(['sha384-', 'AAAAAAAAA', 'AAAAAAA']);
  });

  it('prefers a space to punctuation earlier in the line', () => {
    expect(lines('a/b c-defghijk')).toEqual(['a/b', 'c-', 'defghijk']);
  });

  it('keeps explicit line breaks and empty lines, and drops spaces at a break', () => {
    expect(lines('one\n\ntwo   three', 20)).toEqual(['one', '', 'two   three']);
    expect(lines('abcdefgh   ijk')).toEqual(['abcdefgh', 'ijk']);
  });

  it('measures each character once', () => {
    let measured = 0;
    const counting = new TextFitter(() => {
      measured += 1;
      return 1;
    });
    counting.lines('aaaa bbbb aaaa', 1, 100);
    expect(measured).toBe(3);
    expect(counting.widthOf('ab', 7)).toBe(14);
  });
});
