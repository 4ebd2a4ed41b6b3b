import { checkCspReports } from './csp-reports';

const page = 'https://shop.example/checkout';
const report = (fields: Record<string, unknown>) => ({
  'csp-report': { 'document-uri': page, 'effective-directive': 'script-src-elem', 'blocked-uri': 'https://evil.example/s.js', ...fields },
});

describe('browser CSP reports', () => {
  it('keeps a refused script whose URL is too long only for its query, without the query', () => {
    const script = `https://evil.example/${'p'.repeat(100)}.js`;
    const checked = checkCspReports(report({ 'blocked-uri': `${script}?${'q=1&'.repeat(600)}#frag` }));
    expect(checked).toMatchObject({ accepted: 2, rejected: 0, rejections: [] });
    expect(checked.pages[0].accepted).toEqual([
      { kind: 'csp_violation', directive: 'script-src-elem', blocked_uri: script },
      { kind: 'script', inline: false, src: script },
    ]);
  });

  it('keeps a long query while the URL fits in 2,048 characters', () => {
    const blocked = `https://evil.example/s.js?${'q'.repeat(2_048 - 'https://evil.example/s.js?'.length)}`;
    expect(checkCspReports(report({ 'blocked-uri': blocked })).pages[0].accepted[0]).toMatchObject({ blocked_uri: blocked });
  });

  it('says a blocked URL or source file is too long when it is, even without its query', () => {
    const long = `https://evil.example/${'p'.repeat(2_048)}.js?q=1`;
    expect(checkCspReports([report({ 'blocked-uri': long }), report({ 'source-file': long })])).toMatchObject({
      accepted: 0,
      rejected: 2,
      rejections: [
        { index: 0, reason: 'the blocked URL is longer than 2048 characters, even without its query' },
        { index: 1, reason: 'the source file is longer than 2048 characters, even without its query' },
      ],
    });
  });

  it('says a report nested too deeply is that, not a prototype key', () => {
    const deep = JSON.parse(`{"csp-report":{"document-uri":"${page}","x":${'{"a":'.repeat(8)}1${'}'.repeat(8)}}}`);
    expect(checkCspReports(deep).rejections).toEqual([{ index: 0, reason: 'report is nested too deeply (more than 8 levels)' }]);
  });

  it('refuses a document URL with control characters', () => {
    expect(checkCspReports(report({ 'document-uri': `${page}\u202E` })).rejections).toEqual([
      { index: 0, reason: 'the document URL must be an http(s) URL, without control characters' },
    ]);
  });
});
