import { policyAllows } from './policy-allows';

const PAGE = 'https://shop.example';
const external = (src: string) => ({ src, inline: false, current_hash: 'sha384-X' });
const inline = (hash: string | null) => ({ src: 'inline:1', inline: true, current_hash: hash });

describe('whether a CSP lets a script element run', () => {
  it('takes a file source for that file only, whatever its query, and a directory source for what is under it', () => {
    const policy = 'script-src https://cdn.example/lib/a.js https://static.example/js/';
    expect(policyAllows(policy, external('https://cdn.example/lib/a.js?v=2'), PAGE)).toBe(true);
    expect(policyAllows(policy, external('https://cdn.example/lib/b.js'), PAGE)).toBe(false);
    expect(policyAllows(policy, external('https://static.example/js/deep/c.js'), PAGE)).toBe(true);
    expect(policyAllows(policy, external('https://static.example/other.js'), PAGE)).toBe(false);
  });

  it("reads hosts, wildcards, schemes, ports and 'self' as browsers do", () => {
    expect(policyAllows('script-src *.example.com', external('https://a.b.example.com/x.js'), PAGE)).toBe(true);
    expect(policyAllows('script-src *.example.com', external('https://example.com/x.js'), PAGE)).toBe(false);
    expect(policyAllows('script-src http://cdn.example', external('https://cdn.example/x.js'), PAGE)).toBe(true);
    expect(policyAllows('script-src https://cdn.example', external('http://cdn.example/x.js'), PAGE)).toBe(false);
    expect(policyAllows('script-src https://cdn.example', external('https://cdn.example:8443/x.js'), PAGE)).toBe(false);
    expect(policyAllows('script-src https://cdn.example:*', external('https://cdn.example:8443/x.js'), PAGE)).toBe(true);
    expect(policyAllows('script-src https:', external('https://any.example/x.js'), PAGE)).toBe(true);
    expect(policyAllows("script-src 'self'", external('https://shop.example/app.js'), PAGE)).toBe(true);
    expect(policyAllows("script-src 'self'", external('https://cdn.shop.example/app.js'), PAGE)).toBe(false);
    expect(policyAllows('script-src *', external('https://any.example/x.js'), PAGE)).toBe(true);
    expect(policyAllows("script-src 'none'", external('https://shop.example/app.js'), PAGE)).toBe(false);
  });

  it('takes an inline script by its hash, or by unsafe-inline only where no hash or nonce is listed', () => {
    expect(policyAllows("script-src 'sha384-A'", inline('sha384-A'), PAGE)).toBe(true);
    expect(policyAllows("script-src 'sha384-A'", inline('sha384-B'), PAGE)).toBe(false);
    expect(policyAllows("script-src 'unsafe-inline'", inline('sha384-B'), PAGE)).toBe(true);
    expect(policyAllows("script-src 'unsafe-inline' 'sha384-A'", inline('sha384-B'), PAGE)).toBe(false);
    expect(policyAllows("script-src 'unsafe-inline' 'nonce-abc'", inline(null), PAGE)).toBe(false);
  });

  it('falls back from script-src-elem to script-src to default-src, allows all without any, and needs every policy of a header', () => {
    const cdn = external('https://cdn.example/x.js');
    expect(policyAllows("script-src-elem https://cdn.example; script-src 'none'", cdn, PAGE)).toBe(true);
    expect(policyAllows("default-src 'self'", cdn, PAGE)).toBe(false);
    expect(policyAllows("img-src 'none'", cdn, PAGE)).toBe(true);
    expect(policyAllows("script-src https://cdn.example, script-src 'self'", cdn, PAGE)).toBe(false);
    expect(policyAllows("script-src 'self'; script-src https://cdn.example", cdn, PAGE)).toBe(false);
  });
});
