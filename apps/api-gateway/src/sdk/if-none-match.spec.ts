import { noneMatch } from './if-none-match';

describe('If-None-Match', () => {
  const etag = '"abc-1"';

  it.each([
    ['the tag itself', '"abc-1"'],
    ['the tag made weak', 'W/"abc-1"'],
    ['a list holding it', '"old", "abc-1"'],
    ['a star', '*'],
  ])('matches %s', (_case, header) => {
    expect(noneMatch(header, etag)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['another tag', '"abc-2"'],
    ['a tag without quotes', 'abc-1'],
    ['a list without it', '"a", W/"b"'],
  ])('does not match %s', (_case, header) => {
    expect(noneMatch(header, etag)).toBe(false);
  });
});
