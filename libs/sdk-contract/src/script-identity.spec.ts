import { scriptKey } from './script-identity';

describe('script identity', () => {
  it('is an external script URL without query or fragment, as the URL parser spells it', () => {
    expect(scriptKey({ inline: false, src: 'https://cdn.example/app.js?v=2#top' })).toBe('src:https://cdn.example/app.js');
    expect(scriptKey({ inline: false, src: 'https://CDN.Example:443/lib/../app.js' })).toBe('src:https://cdn.example/app.js');
    expect(scriptKey({ inline: false, src: 'http://cdn.example:8080/app.js' })).toBe('src:http://cdn.example:8080/app.js');
  });

  it('is an inline script by its content hash, whatever else it carries', () => {
    expect(scriptKey({ inline: true, hash: 'sha384-abc' })).toBe('inline:sha384-abc');
    expect(scriptKey({ inline: true, hash: 'sha384-abc' })).not.toBe(scriptKey({ inline: true, hash: 'sha384-abd' }));
  });

  it("keeps the path's case: only the host is case-insensitive", () => {
    expect(scriptKey({ inline: false, src: 'https://cdn.example/App.js' })).not.toBe(scriptKey({ inline: false, src: 'https://cdn.example/app.js' }));
  });
});
